import Foundation
import TapTraceCore
import TapTraceFormats
import Testing

/// The checkout screen of `examples/`: a Buy button on a card that has its own tap recognizer.
private func example(_ name: String) throws -> [UInt8] {
    let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    return Array(try Data(contentsOf: examples.appendingPathComponent(name)))
}

@Suite struct Checkout {
    /// A request document (scene + touches) from JSON, as `taptrace dispatch` reads it.
    @Test func theBuyButtonGetsTheTapAndSendsItsAction() throws {
        let result = try TapTrace.dispatch(json: example("checkout.request.json"))
        #expect(result.firstResponder?.id == "buyButton")
        #expect(result.actions.map(\.action) == ["buyTapped:"])
        #expect(result.actions.first?.target == "checkoutVC")
    }

    /// A scene document from JSON and a tap that names the element, as XCUITest taps it.
    @Test func tappingTheButtonByItsIdentifier() throws {
        let scene = try InputDecoder.sceneIndex(example("checkout.scene.json"))
        let touches = TouchSequence(gestures: [.tap(at: .view("buyButton"), t: nil, duration: nil)])
        let result = try TapTrace.dispatch(scene, touches: touches, records: [])
        let element = try #require(result.elements.first)
        #expect(element.hittable)
        #expect(element.hitTestView == "buyButton")
        #expect(result.actions.map(\.action) == ["buyTapped:"])
    }
}

/// A screen built in code: a button under a full-screen overlay that swallows touches.
@Suite struct CoveredButton {
    private func screen(overlayInteractive: Bool) -> Scene {
        var scene = Scene(name: "covered")
        var window = ViewSpec(id: "window", className: "UIWindow", base: .UIWindow)
        window.frame = Rect(0, 0, 390, 844)
        let w = scene.add(window, to: nil)
        var button = ViewSpec(id: "pay", className: "UIButton", base: .UIButton)
        button.frame = Rect(100, 300, 190, 44)
        button.targets = [ControlTarget(events: [.touchUpInside], target: nil, action: "pay:")]
        scene.add(button, to: w)
        var overlay = ViewSpec(id: "dimming", className: "UIView", base: .UIView)
        overlay.frame = Rect(0, 0, 390, 844)
        overlay.userInteractionEnabled = overlayInteractive
        scene.add(overlay, to: w)
        return scene
    }

    private func tap(_ scene: Scene) throws -> DispatchResult {
        let touches = TouchSequence(gestures: [.tap(at: .point(Point(195, 322)), t: nil, duration: nil)])
        return try TapTrace.dispatch(DispatchRequest(scene: scene, touches: touches))
    }

    @Test func theOverlayTakesTheTap() throws {
        let result = try tap(screen(overlayInteractive: true))
        #expect(result.firstResponder?.id == "dimming")
        #expect(result.actions.isEmpty)
    }

    @Test func withInteractionOffTheTapFallsThroughToTheButton() throws {
        let result = try tap(screen(overlayInteractive: false))
        #expect(result.firstResponder?.id == "pay")
        #expect(result.actions.map(\.action) == ["pay:"])
    }

    /// `taptrace audit` in-process: the covered button is reported with the view on top.
    @Test func theAuditNamesTheViewOnTop() throws {
        let audit = TappabilityAudit.run(try SceneIndex(validating: screen(overlayInteractive: true)))
        let pay = try #require(audit.elements.first { $0.view.id == "pay" })
        #expect(pay.status == .unreachable)
        #expect(pay.hitTestView?.id == "dimming")
    }
}
