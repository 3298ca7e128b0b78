import Testing
import TapTraceCore
@testable import TapTraceImport

/// The debugger's add-ons pasted after a recursiveDescription dump join its views by address:
/// controllers enter the responder chain, recognizers and control targets their views.
struct AddOnJoinTests {
    // MARK: one real session

    /// recursiveDescription_07 and printHierarchy_06 are one debugger session (the
    /// "hongmhoon_joint" slug): pasted one after the other, they are one text.
    private func hongmhoonSession(ids: ImportOptions.Identity) throws -> Imported {
        let text = try Fixtures.pasted("recursiveDescription_07") + Fixtures.pasted("printHierarchy_06")
        return try Imported.recursiveDescription(text, ids: ids)
    }

    @Test func sessionJoinsTheControllerThatOwnsTheDumpedView() throws {
        let s = try hongmhoonSession(ids: .address)
        let root = try s.view(address: "0x7fc94b63c360")
        #expect(root.viewController == ViewControllerSpec(id: "DetailViewController-0x7fc94b637db0", className: "DetailViewController"))
        // No other view has a controller: the other two controllers' views are not in the dump.
        #expect(s.scene.views.filter { $0.viewController != nil }.count == 1)
        // R2, R3: the button's chain goes through DetailViewController, then the window its
        // view is the root view of.
        #expect(try s.responderChain(fromAddress: "0x7fc94b63b7c0") == [
            "UIButton-0x7fc94b63b7c0", "UIView-0x7fc94b63c470", "UIView-0x7fc94b63c360",
            "DetailViewController-0x7fc94b637db0", "window", "UIApplication",
        ])
        // The navigation controller is on screen but its view is not in this dump.
        #expect(s.warning("the responder chain misses them")?.contains("UINavigationController 0x7fc94b71dbc0 (view 0x7fc94b469c40)") == true)
        // The pushed-over controller is not in the window: a notice, not a behaviour warning.
        #expect(s.warning("not in the window")?.contains("ViewController 0x7fc94b71e090 (view 0x7fc94b48cf00)") == true)
        // Controllers were pasted: no warning that they are missing.
        #expect(!s.hasWarning("has no view controllers"))
        // A tap on the button still lands on the button.
        #expect(s.hit(187, 333) == "UIButton-0x7fc94b63b7c0")
    }

    @Test func sessionWithStableIdsNamesTheControllerByItsClass() throws {
        let s = try hongmhoonSession(ids: .stable)
        let root = try s.view(address: "0x7fc94b63c360")
        #expect(root.viewController?.id == "DetailViewController")
        let chain = try s.responderChain(fromAddress: "0x7fc94b63b7c0")
        #expect(chain.contains("DetailViewController"))
        #expect(chain.first == "UIButton:Button")
    }

    @Test func aDumpWithoutControllersSaysTheChainSkipsThem() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_07"))
        let w = try #require(s.warning("has no view controllers"))
        #expect(w.contains("po [[[UIWindow keyWindow] rootViewController] _printHierarchy]"))
        // Weight .behaviour: it comes before the notices and the ignored fields.
        #expect(s.warnings.firstIndex(of: w)! < s.warnings.firstIndex { $0.hasPrefix("fields ignored") }!)
        let chain = try s.responderChain(fromAddress: "0x7fc94b63b7c0")
        #expect(chain == ["UIButton-0x7fc94b63b7c0", "UIView-0x7fc94b63c470", "UIView-0x7fc94b63c360", "window", "UIApplication"])
    }

    @Test func theSameTextAlwaysGivesTheSameScene() throws {
        let a = try hongmhoonSession(ids: .stable)
        let b = try hongmhoonSession(ids: .stable)
        #expect(a.scene == b.scene)
        #expect(a.warnings == b.warnings)
    }

    // MARK: presented controllers (R3)

    /// The view lines are written for the test (PSPDFCatalog's presented navigation stack and
    /// its popover, with the addresses printHierarchy_01 gives their views); the add-on is the
    /// real sample.
    @Test func presentedControllersNameTheirPresenter() throws {
        let hierarchy = """
        <UIWindow: 0x7b3205d0; frame = (0 0; 768 1024); layer = <UIWindowLayer: 0x7b3204b0>>
           | <UITransitionView: 0x8012b1a0; frame = (0 0; 768 1024); autoresize = W+H; layer = <CALayer: 0x8012b320>>
           |    | <UILayoutContainerView: 0x8012b7a0; frame = (0 0; 768 1024); layer = <CALayer: 0x8012b860>>
           |    |    | <PSPDFViewControllerView: 0x80129640; frame = (0 0; 768 1024); layer = <CALayer: 0x801296f0>>
           |    |    |    | <UIView: 0x7def1ce0; frame = (0 0; 768 1024); layer = <CALayer: 0x7def1d90>>
           | <UILayoutContainerView: 0x8017b490; frame = (200 300; 320 400); layer = <CALayer: 0x8017b550>>
           |    | <UIView: 0x7f5a1380; frame = (0 0; 320 400); layer = <CALayer: 0x7f5a1430>>
           |    |    | <UIView: 0x7f3dbb90; frame = (0 0; 320 400); layer = <CALayer: 0x7f3dbc40>>

        """
        let s = try Imported.recursiveDescription(hierarchy + Fixtures.pasted("printHierarchy_01"))
        let popover = try #require(try s.view(address: "0x8017b490").viewController)
        #expect(popover.id == "PSPDFNavigationController-0x7d21a800")
        #expect(popover.presentedBy == "UINavigationController-0x8012c5d0")
        // The presented navigation controller's presenter (the root) has no view in the dump.
        let presented = try #require(try s.view(address: "0x8012b7a0").viewController)
        #expect(presented.presentedBy == nil)
        #expect(s.warning("presenter is not in the scene")?.contains("UINavigationController 0x8012c5d0 (presented by PSPDFNavigationController 0x7d025000)") == true)
        // R3, R5: from the stamp controller's view up through its parents, then to the
        // controller that presented the popover.
        #expect(try s.responderChain(fromAddress: "0x7f3dbb90") == [
            "UIView-0x7f3dbb90", "PSPDFStampViewController-0x8016b6e0", "UIView-0x7f5a1380",
            "PSPDFContainerViewController-0x8017ac40", "UILayoutContainerView-0x8017b490",
            "PSPDFNavigationController-0x7d21a800", "UINavigationController-0x8012c5d0",
            "UITransitionView-0x8012b1a0", "UIWindow-0x7b3205d0", "UIApplication",
        ])
        // The root controller is not in the window and its view is not in the dump.
        #expect(s.warning("not in the window")?.contains("PSPDFNavigationController 0x7d025000") == true)
        // With stable ids the reference is renamed with the controller.
        let stable = try Imported.recursiveDescription(hierarchy + Fixtures.pasted("printHierarchy_01"), ids: .stable)
        let stablePopover = try #require(try stable.view(address: "0x8017b490").viewController)
        #expect(stablePopover.presentedBy == "UINavigationController")
    }

    /// The view lines are written for the test with the addresses of printHierarchy_04 (WeChat's
    /// tab bar, Cycript); the add-on, its cy# prompt included, is the real sample.
    @Test func cycriptTabBarJoinsTheVisibleTabAndNotesTheRest() throws {
        let hierarchy = """
        <UIWindow: 0x16e1e6a0; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x16e1e8c0>>
           | <UILayoutContainerView: 0x18265ac0; frame = (0 0; 320 568); layer = <CALayer: 0x18265b80>>
           |    | <UILayoutContainerView: 0x180cd0e0; frame = (0 0; 320 568); layer = <CALayer: 0x180cd1a0>>
           |    |    | <UIView: 0x16e36c30; frame = (0 64; 320 455); layer = <CALayer: 0x16e36ce0>>

        """
        let s = try Imported.recursiveDescription(hierarchy + Fixtures.pasted("printHierarchy_04"))
        #expect(try s.view(address: "0x18265ac0").viewController?.className == "MMTabBarController")
        #expect(try s.view(address: "0x180cd0e0").viewController?.className == "MMUINavigationController")
        #expect(try s.view(address: "0x16e36c30").viewController?.id == "BaseMsgContentViewController-0x179b3800")
        #expect(s.warning("view is not loaded")?.contains("ContactsViewController 0x17162800") == true)
        #expect(s.warning("not in the window")?.contains("NewMainFrameViewController 0x179a2400 (view 0x1827f980)") == true)
        // The prompt named the add-on: it was read, not skipped.
        #expect(!s.hasWarning("debugger prompt lines skipped"))
        #expect(try s.responderChain(fromAddress: "0x16e36c30") == [
            "UIView-0x16e36c30", "BaseMsgContentViewController-0x179b3800",
            "UILayoutContainerView-0x180cd0e0", "MMUINavigationController-0x1800f230",
            "UILayoutContainerView-0x18265ac0", "MMTabBarController-0x18265240",
            "UIWindow-0x16e1e6a0", "UIApplication",
        ])
    }

    @Test func purgedAddressesJoinNothing() throws {
        let s = try Imported.recursiveDescription("<UIView; frame = (0 0; 375 812)>\n" + Fixtures.pasted("printHierarchy_07b"))
        #expect(s.scene.views.allSatisfy { $0.viewController == nil })
        #expect(s.warning("without an address")?.contains("UITabBarController") == true)
    }

    // MARK: the whole session with prompts

    @Test func promptsNameEachPiece() throws {
        let s = try Imported.recursiveDescription("""
        (lldb) po [[UIWindow keyWindow] recursiveDescription]
        <UIWindow: 0x1; frame = (0 0; 100 100); gestureRecognizers = <NSArray: 0x9>; layer = <UIWindowLayer: 0x8>>
           | <UIView: 0x2; frame = (0 0; 100 100); gestureRecognizers = <NSArray: 0xa>; layer = <CALayer: 0x7>>
           |    | <UIButton: 0x3; frame = (10 10; 50 20); layer = <CALayer: 0x6>>
        (lldb) po [[[UIWindow keyWindow] rootViewController] _printHierarchy]
        <MyViewController 0x10>, state: appeared, view: <UIView 0x2>
        (lldb) po [[$view gestureRecognizers] firstObject]
        <UITapGestureRecognizer: 0x20; state = Possible; view = <UIView 0x2>; target= <(action=dismiss:, target=<MyViewController 0x10>)>>
        (lldb) po [(UIButton *)0x3 allTargets]
        {(
            <MyViewController: 0x10>
        )}
        (lldb) po [(UIButton *)0x3 actionsForTarget:(id)0x10 forControlEvent:64]
        <__NSArrayM 0x30>(
        buy:
        )
        """)
        let root = try s.view("UIView-0x2")
        #expect(root.viewController?.id == "MyViewController-0x10")
        #expect(root.gestureRecognizers?.map(\.id) == ["UITapGestureRecognizer-0x20"])
        #expect(root.gestureRecognizers?.first?.targets == [RecognizerTarget(target: "MyViewController-0x10", action: "dismiss:")])
        #expect(try s.view("UIButton-0x3").targets == [ControlTarget(events: [.touchUpInside], target: "MyViewController-0x10", action: "buy:")])
        // The hierarchy's prompt is skipped as before; the add-ons' prompts were read.
        #expect(s.warning("debugger prompt lines skipped") == "debugger prompt lines skipped: line 1")
        // The root view's recognizers are described; the window's are not.
        #expect(s.warning("gestureRecognizers = <NSArray") == "views with gesture recognizers the dump does not describe (gestureRecognizers = <NSArray …>); paste `po view.gestureRecognizers` after the hierarchy, or add them to the scene, if they matter: UIWindow-0x1")
    }

    @Test func aPromptThatNamesNothingIsSkippedAndTheLinesDecide() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UIView: 0x2; frame = (0 0; 100 100)>
        (lldb) po $1
        <UITapGestureRecognizer: 0x20; state = Possible; view = <UIView 0x2>; target= <(action=tap:, target=<UIView 0x2>)>>
        (lldb) c
        """)
        #expect(try s.view("UIView-0x2").gestureRecognizers?.count == 1)
        #expect(s.warning("debugger prompt lines skipped") == "debugger prompt lines skipped: line 3, line 5")
    }

    @Test func anAddOnBeforeAnyHierarchyIsRefusedAtItsFirstLine() throws {
        for (prefix, kind) in [("printHierarchy_06", "_printHierarchy"), ("gestureRecognizers_05", "recognizer"),
                               ("allTargets_01", "allTargets"), ("printHierarchy_04", "_printHierarchy")] {
            let bytes = try Fixtures.named(prefix)
            let e = try #require(importError { () throws(ImportError) in try RecursiveDescriptionParser.parse(bytes) })
            // Line 1 is the `# SOURCE:` line.
            #expect((e.line, e.column) == (2, 1), "\(prefix)")
            #expect(e.message.contains(kind), "\(prefix): \(e.message)")
            #expect(e.message.contains("comes before any view hierarchy"))
        }
    }

    @Test func aRecognizerAtDepthZeroIsNotAView() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (0 0; 100 100)>
        <UITapGestureRecognizer: 0x20; state = Possible; view = <UIView 0x1>; target= <(action=tap:, target=<UIView 0x1>)>>
        """)
        #expect(s.scene.views.map(\.id) == ["window", "UIView-0x1"])
        #expect(try s.view("UIView-0x1").gestureRecognizers?.map(\.className) == ["UITapGestureRecognizer"])
    }

    @Test func aSecondHierarchyAfterAnAddOnIsAnotherWindow() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
        <UITapGestureRecognizer: 0x20; state = Possible; view = <UIWindow 0x1>; target= <(action=tap:, target=<UIWindow 0x1>)>>
        <UIWindow: 0x2; frame = (0 0; 100 100)>
           | <UIView: 0x3; frame = (0 0; 10 10)>
        """)
        #expect(s.scene.windows.map { s.scene.views[$0].id } == ["UIWindow-0x1", "UIWindow-0x2"])
        #expect(try s.view("UIWindow-0x1").gestureRecognizers?.count == 1)
    }
}
