import SceneTestSupport

/// Scenes of the why tests, on the shared scene of dispatch-rules.md §6 (`Scenes.scene`).
enum WhyScenes {
    static func touchView(_ recognizers: String, extra: String = "") -> String {
        Scenes.scene(#"{"id": "V", "class": "TouchView", "frame": [20, 100, 200, 200], "overrides": {"touches": "handle"}\#(extra), "gestureRecognizers": [\#(recognizers)]}"#)
    }

    static func tap(_ id: String, _ extra: String = "", action: String = "handleTap:") -> String {
        #"{"id": "\#(id)", "class": "UITapGestureRecognizer"\#(extra), "targets": [{"target": "VC", "action": "\#(action)"}]}"#
    }

    /// SC-03: a container C with `tapC` and a control B inside it.
    static func sc03(control: String, cancels: Bool = true, extraTargets: String = "") -> String {
        Scenes.scene("""
            {"id": "C", "class": "UIView", "frame": [0, 150, 390, 300],
             "gestureRecognizers": [{"id": "tapC", "class": "UITapGestureRecognizer", "cancelsTouchesInView": \(cancels),
                                     "targets": [{"target": "VC", "action": "handleBackgroundTap:"}]}],
             "subviews": [{"id": "B", \(control), "frame": [40, 50, 120, 44], "targets": [
               {"events": ["touchUpInside"], "target": "VC", "action": "buttonTapped:"}\(extraTargets)]}]}
            """)
    }

    /// SC-02's button B at (40, 200, 120, 44).
    static func button(_ extra: String = "", target: String = "\"VC\"") -> String {
        Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 44]\#(extra), "targets": [{"events": ["touchUpInside"], "target": \#(target), "action": "buttonTapped:"}]}"#)
    }

    /// SC-11: a nil-targeted button inside P.
    static func sc11(vc: String = "") -> String {
        Scenes.scene("""
            {"id": "P", "class": "UIView", "frame": [0, 100, 390, 300], "subviews": [
              {"id": "B", "class": "UIButton", "frame": [40, 50, 120, 44], "targets": [
                {"events": ["touchUpInside"], "target": null, "action": "saveDocument:"}]}]}
            """, vc: vc)
    }

    /// SC-17: Q presented by P; B in Q's view.
    static let sc17 = """
        {"format": "taptrace/scene@1", "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate", "isResponder": true}},
         "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": [
           {"id": "RP", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "P", "class": "PresentingVC", "implements": ["closeTapped:"]}},
           {"id": "RQ", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "Q", "class": "PresentedVC", "presentedBy": "P"}, "subviews": [
             {"id": "B", "class": "UIButton", "frame": [40, 700, 120, 44], "targets": [{"events": ["touchUpInside"], "target": null, "action": "closeTapped:"}]}]}]}]}
        """
}
