import Testing
import TapTraceCore
@testable import TapTraceImport

/// Recognizer descriptions: every real sample read on its own, joined after a small
/// hierarchy, and the grammar's edges.
///
/// The samples have no hierarchy of their own (nothing to join to), so each join test puts a
/// few view lines before the sample: the view lines are written for the test with the
/// addresses the sample prints; the recognizer text is the real sample.
struct RecognizerDescriptionTests {
    // MARK: the samples, parsed

    @Test func scrollViewRecognizersOnePerParagraphWithMustFailBlocks() throws {
        let list = try AddOns.recognizers(try Fixtures.named("gestureRecognizers_01"))
        #expect(list.map(\.recognizer.className) == [
            "UIScrollViewDelayedTouchesBeganGestureRecognizer", "UIScrollViewPanGestureRecognizer",
            "UIScrollViewKnobLongPressGestureRecognizer", "_UIDragAutoScrollGestureRecognizer",
            "UIScrollViewPagingSwipeGestureRecognizer",
        ])
        #expect(list[0].delaysTouchesBegan == true)
        #expect(list[1].delaysTouchesEnded == false)
        #expect(list[1].mustFail.map(\.recognizer.address) == ["0x7ff4cb404270"])
        #expect(list[1].mustFail[0].nested)
        #expect(list[4].mustFailFor.map(\.recognizer.address) == ["0x7ff4cb527810"])
        #expect(list[3].cancelsTouchesInView == false)
        #expect(list.allSatisfy { $0.view?.address == "0x7ff4cc033200" && $0.state == "Possible" })
        #expect(list[4].targets.map(\.action) == ["_handleSwipe:"])
        #expect(list[4].targets[0].target == ObjectReference(className: "WKScrollView", address: "0x7ff4cc033200", offset: list[4].targets[0].target.offset))
    }

    @Test func nslogQuotedElementsWithEscapedLineBreaksAndNames() throws {
        let list = try AddOns.recognizers(try Fixtures.named("gestureRecognizers_02"))
        #expect(list.count == 12)
        #expect(list[2].numberOfTapsRequired == 0 && list[2].minimumPressDuration == 0.1)
        let tap = list[7]
        #expect(tap.recognizer.address == "0x11f511930")
        #expect(tap.numberOfTouchesRequired == 2)
        #expect(tap.mustFail.map(\.recognizer.className) == ["UIPanGestureRecognizer"])
        #expect(tap.targets[0].target.className == "UIMultiSelectInteraction")
        #expect(list[8].mustFailFor.map(\.recognizer.address) == ["0x11f511930"])
        #expect(list[10].enabled == false)
        #expect(list[11].ignored.isEmpty)
        #expect(list[2].ignored.isEmpty)
    }

    @Test func reformattedOverLinesWithNoBreakSpaces() throws {
        let list = try AddOns.recognizers(try Fixtures.named("gestureRecognizers_03"))
        #expect(list.count == 1)
        let single = list[0]
        #expect(single.recognizer.address == "0x6180001a72a0")
        #expect(single.targets.map(\.action) == ["_singleTapRecognized:"])
        #expect(single.mustFail.map(\.recognizer.address) == ["0x6180001a7d20", "0x6180001a8180"])
        #expect(single.mustFail.map(\.numberOfTapsRequired) == [2, 2])
        #expect(single.mustFail[1].numberOfTouchesRequired == 2)
        // Positions are the file's: line 2 is the description's first line.
        #expect(try Fixtures.location(of: single.recognizer.offset, in: Fixtures.named("gestureRecognizers_03")) == (2, 1))
    }

    @Test func swiftOptionalArrayWithALabel() throws {
        let list = try AddOns.recognizers(try Fixtures.named("gestureRecognizers_04"))
        #expect(list.map(\.recognizer.className) == [
            "UILongPressGestureRecognizer", "UIPanGestureRecognizer", "UITapGestureRecognizer",
            "UIPinchGestureRecognizer", "UIRotationGestureRecognizer", "UITapGestureRecognizer",
        ])
        #expect(list.prefix(5).allSatisfy { $0.enabled == false && $0.cancelsTouchesInView == false })
        #expect(list[2].numberOfTapsRequired == 2)
        #expect(list[5].state == "Ended")
        #expect(list[5].targets[0].action == "addColladaModelToSceneViewWithGestureRecognizer:")
        #expect(list[5].targets[0].target.className == "ARDoggo.ViewController")
    }

    @Test func oneSenderWithSwiftClasses() throws {
        let list = try AddOns.recognizers(try Fixtures.named("gestureRecognizers_05"))
        #expect(list.count == 1)
        #expect(list[0].view == ObjectReference(className: "myaudio.albumCell", address: "0x146ae1f0", offset: list[0].view!.offset))
        #expect(list[0].targets[0].target.text == "myaudio.FirstViewController 0x145cff70")
    }

    // MARK: joined

    private let wkScrollView = """
    <WKScrollView: 0x7ff4cc033200; baseClass = UIScrollView; frame = (0 0; 375 667); clipsToBounds = YES; gestureRecognizers = <NSArray: 0x600003ab8810>; layer = <CALayer: 0x600003f8c3a0>; contentOffset: {0, 0}; contentSize: {375, 2000}>

    """

    @Test func aScrollViewKeepsItsOwnRecognizersOnce() throws {
        let s = try Imported.recursiveDescription(wkScrollView + Fixtures.pasted("gestureRecognizers_01"))
        let view = try s.view("WKScrollView-0x7ff4cc033200")
        // SV1's delay and pan are the engine's; the knob and the paging swipe are added in
        // printed order (G3); the drag auto-scroll implies no base.
        #expect(view.gestureRecognizers?.map(\.id) == [
            "UIScrollViewKnobLongPressGestureRecognizer-0x7ff4cb527e80",
            "UIScrollViewPagingSwipeGestureRecognizer-0x7ff4cb404270",
        ])
        #expect(view.gestureRecognizers?.map(\.base) == [.longPress, .swipe])
        #expect(view.gestureRecognizers?[1].targets == [RecognizerTarget(target: "WKScrollView-0x7ff4cc033200", action: "_handleSwipe:")])
        let ids = s.index.recognizers(ofView: try s.index(address: "0x7ff4cc033200")).map { s.index.recognizers[$0].id }
        #expect(ids == ["WKScrollView-0x7ff4cc033200.delay", "WKScrollView-0x7ff4cc033200.pan",
                        "UIScrollViewKnobLongPressGestureRecognizer-0x7ff4cb527e80",
                        "UIScrollViewPagingSwipeGestureRecognizer-0x7ff4cb404270"])
        // The pan waits for the paging swipe (printed both ways): one relation, on a built-in.
        #expect(s.warning("scroll view's own recognizers are not modelled") == "failure requirements with a scroll view's own recognizers are not modelled (SV1 builds them without any): UIScrollViewPanGestureRecognizer 0x7ff4cb527810 waits for UIScrollViewPagingSwipeGestureRecognizer 0x7ff4cb404270")
        #expect(s.warning("implies no base")?.contains("_UIDragAutoScrollGestureRecognizer 0x600003ab87e0") == true)
        // Described: no "undescribed recognizers" warning for it.
        #expect(!s.hasWarning("gestureRecognizers = <NSArray"))
    }

    @Test func aViewCarryingScrollViewRecognizersIsAScrollView() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (0 0; 375 667)>
           | <WKScrollView: 0x7ff4cc033200; frame = (0 0; 375 667); gestureRecognizers = <NSArray: 0x600003ab8810>>

        """ + Fixtures.pasted("gestureRecognizers_01"))
        let view = try s.view("WKScrollView-0x7ff4cc033200")
        #expect(view.base == .UIScrollView && view.explicitBase)
        #expect(s.warning("imported as UIScrollView because they carry") == "views imported as UIScrollView because they carry a scroll view's own recognizers (SV1): WKScrollView-0x7ff4cc033200")
        #expect(view.gestureRecognizers?.count == 2)
    }

    @Test func collectionViewRecognizersWithFailureRequirementsAndForeignTargets() throws {
        let s = try Imported.recursiveDescription("""
        <UICollectionView: 0x120818c00; frame = (0 0; 390 844); clipsToBounds = YES; gestureRecognizers = <NSArray: 0x2830b8f30>; layer = <CALayer: 0x2832a1a40>; contentOffset: {0, 0}; contentSize: {390, 1200}>

        """ + Fixtures.pasted("gestureRecognizers_02"))
        let grs = try #require(try s.view("UICollectionView-0x120818c00").gestureRecognizers)
        #expect(grs.map(\.id) == [
            "UIScrollViewKnobLongPressGestureRecognizer-0x11f510830", "UIScrollViewKnobLongPressGestureRecognizer-0x11f510a10",
            "_UIMultiSelectOneFingerPanGesture-0x11f5115d0", "UITapGestureRecognizer-0x11f511930",
            "UIPanGestureRecognizer-0x11f511790", "_UISingleFingerTapExtensionGesture-0x11f511a50",
            "UILongPressGestureRecognizer-0x11f511ed0",
        ])
        #expect(grs.map(\.base) == [.longPress, .longPress, .pan, .tap, .pan, .tap, .longPress])
        #expect(grs[0].numberOfTapsRequired == 0 && grs[0].minimumPressDuration == 0.1)
        // GM6, printed as must-fail on the tap and must-fail-for on the pan: once.
        #expect(grs[3].requireToFail == ["UIPanGestureRecognizer-0x11f511790"])
        #expect(grs[3].numberOfTouchesRequired == 2)
        #expect(grs[6].enabled == false && grs[6].cancelsTouchesInView == false && grs[6].delaysTouchesEnded == false)
        // The interaction objects are not views or controllers: nil targets (A7), named.
        #expect(grs[2].targets == [RecognizerTarget(target: nil, action: "_handleCommonPanGestureStateChanged:")])
        let w = try #require(s.warning("kept as nil targets"))
        #expect(w.contains("UIMultiSelectInteraction 0x2819c6d00 (_handleCommonPanGestureStateChanged: of _UIMultiSelectOneFingerPanGesture 0x11f5115d0)"))
        #expect(w.contains("UIBandSelectionInteraction 0x281cc0fc0"))
        #expect(s.warning("implies no base")?.contains("UIHoverGestureRecognizer 0x11f510bf0") == true)
        // With stable ids, references follow the renamed recognizers.
        let stable = try Imported.recursiveDescription("""
        <UICollectionView: 0x120818c00; frame = (0 0; 390 844); contentOffset: {0, 0}; contentSize: {390, 1200}>

        """ + Fixtures.pasted("gestureRecognizers_02"), ids: .stable)
        let stableGrs = try #require(stable.scene.views[stable.index(address: "0x120818c00")].gestureRecognizers)
        #expect(stableGrs[3].id == "UIWindow/UICollectionView.UITapGestureRecognizer")
        #expect(stableGrs[3].requireToFail == ["UIWindow/UICollectionView.UIPanGestureRecognizer"])
    }

    @Test func recognizersKnownOnlyFromAMustFailSetComeLast() throws {
        let s = try Imported.recursiveDescription("""
        <UIWebView: 0x7f844a0091b0; frame = (0 0; 375 667); layer = <CALayer: 0x618000036920>>
           | <_UIWebViewScrollView: 0x7f844a00a400; frame = (0 0; 375 667); clipsToBounds = YES; autoresize = H; layer = <CALayer: 0x6180000369e0>; contentOffset: {0, 0}; contentSize: {375, 667}>
           |    | <UIWebBrowserView: 0x7f844a00aa00; frame = (0 0; 375 667); gestureRecognizers = <NSArray: 0x6180000539b0>; layer = <UIWebLayer: 0x618000036b00>>

        """ + Fixtures.pasted("gestureRecognizers_03"))
        let grs = try #require(try s.view("UIWebBrowserView-0x7f844a00aa00").gestureRecognizers)
        #expect(grs.map(\.id) == ["UITapGestureRecognizer-0x6180001a72a0", "UITapGestureRecognizer-0x6180001a7d20", "UITapGestureRecognizer-0x6180001a8180"])
        // The single tap waits for both double taps (the UIWebView click delay).
        #expect(grs[0].requireToFail == ["UITapGestureRecognizer-0x6180001a7d20", "UITapGestureRecognizer-0x6180001a8180"])
        #expect(grs[1].numberOfTapsRequired == 2 && grs[2].numberOfTouchesRequired == 2)
        #expect(grs.allSatisfy { $0.targets.first?.target == "UIWebBrowserView-0x7f844a00aa00" })
        #expect(s.warning("known only from another's must-fail set")?.contains("UITapGestureRecognizer 0x6180001a8180") == true)
    }

    @Test func sceneKitCameraRecognizersAndOneMidGesture() throws {
        let s = try Imported.recursiveDescription("""
        <ARSCNView: 0x104211f50; frame = (0 0; 375 812); gestureRecognizers = <NSArray: 0x2828fe0a0>; layer = <CAMetalLayer: 0x2834d0f00>>

        """ + Fixtures.pasted("gestureRecognizers_04"))
        let grs = try #require(try s.view("ARSCNView-0x104211f50").gestureRecognizers)
        #expect(grs.map(\.base) == [.longPress, .pan, .tap, .pinch, .rotation, .tap])
        #expect(grs.prefix(5).allSatisfy { $0.enabled == false && $0.cancelsTouchesInView == false })
        #expect(grs.allSatisfy { $0.targets.count == 1 && $0.targets[0].target == nil })
        #expect(s.warning("not in state Possible") == "recognizers not in state Possible (the dump was taken mid-gesture); imported as Possible: UITapGestureRecognizer 0x2828f5b00 (Ended)")
        #expect(s.warning("kept as nil targets")?.contains("ARDoggo.ViewController 0x104210110 (addColladaModelToSceneViewWithGestureRecognizer: of UITapGestureRecognizer 0x2828f5b00)") == true)
    }

    /// Here a controller line is written for the test too, with the sample's target address,
    /// so that the recognizer's target joins a controller.
    @Test func aTargetThatIsAControllerJoins() throws {
        let text = """
        <UICollectionView: 0x16a3c000; frame = (0 0; 320 568); gestureRecognizers = <NSArray: 0x146b0f00>; layer = <CALayer: 0x146b0e80>; contentOffset: {0, 0}; contentSize: {320, 900}>
           | <myaudio.albumCell: 0x146ae1f0; baseClass = UICollectionViewCell; frame = (0 0; 160 160); gestureRecognizers = <NSArray: 0x146b0f80>; layer = <CALayer: 0x146ae3c0>>
        <myaudio.FirstViewController 0x145cff70>, state: appeared, view: <UICollectionView 0x16a3c000>

        """ + (try Fixtures.pasted("gestureRecognizers_05"))
        let s = try Imported.recursiveDescription(text)
        let cell = try s.view("myaudio.albumCell-0x146ae1f0")
        #expect(cell.gestureRecognizers?.first?.targets == [RecognizerTarget(target: "myaudio.FirstViewController-0x145cff70", action: "goToView2:")])
        #expect(!s.hasWarning("nil targets"))
        // The collection view's own recognizers were not described: still warned.
        #expect(s.warning("gestureRecognizers = <NSArray")?.hasSuffix("UICollectionView-0x16a3c000") == true)
        let stable = try Imported.recursiveDescription(text, ids: .stable)
        let stableCell = try #require(stable.scene.views.first { $0.address == "0x146ae1f0" })
        #expect(stableCell.gestureRecognizers?.first?.targets.first?.target == "myaudio.FirstViewController")
        #expect(stableCell.gestureRecognizers?.first?.id == stableCell.id + ".UITapGestureRecognizer")
    }

    @Test func recognizersOfViewsNotInTheDumpAreNamed() throws {
        let s = try Imported.recursiveDescription("<UIView: 0x1; frame = (0 0; 10 10)>\n" + Fixtures.pasted("gestureRecognizers_05"))
        #expect(s.warning("recognizers whose view is not in the dump") == "recognizers whose view is not in the dump: UITapGestureRecognizer 0x146b0e30 (view myaudio.albumCell 0x146ae1f0)")
        #expect(s.scene.views.allSatisfy { $0.gestureRecognizers == nil })
    }

    // MARK: classes

    @Test func classNamesImplyTheirBase() {
        let cases: [(String, RecognizerClasses.Kind)] = [
            ("UITapGestureRecognizer", .base(.tap)),
            ("UIScrollViewPanGestureRecognizer", .scrollViewBuiltIn(.scrollViewPan)),
            ("UIScrollViewDelayedTouchesBeganGestureRecognizer", .scrollViewBuiltIn(.scrollViewDelay)),
            ("UIScrollViewPagingSwipeGestureRecognizer", .base(.swipe)),
            ("UIScrollViewKnobLongPressGestureRecognizer", .base(.longPress)),
            ("_UIMultiSelectOneFingerPanGesture", .base(.pan)),
            ("_UISingleFingerTapExtensionGesture", .base(.tap)),
            ("MyApp.DoubleTapRecognizer", .base(.tap)),
            ("UIScreenEdgePanGestureRecognizer", .base(.screenEdgePan)),
            ("_UIScreenEdgePanRecognizer", .base(.screenEdgePan)),
            ("PanelDragGestureRecognizer", .unknown),
            ("UIHoverGestureRecognizer", .unknown),
            ("_UIDragAutoScrollGestureRecognizer", .unknown),
        ]
        for (name, kind) in cases { #expect(RecognizerClasses.kind(of: name) == kind, "\(name)") }
    }

    @Test func fieldsTheBaseDoesNotHaveAreIgnored() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (0 0; 10 10)>
        <MyTapGestureRecognizer: 0x2; state = Possible; view = <UIView 0x1>; target= <(action=tap:, target=<UIView 0x1>)>; numberOfTapsRequired = 0; minimumPressDuration = 0.5; delegate = <UIView 0x1>>
        """)
        let gr = try #require(try s.view("UIView-0x1").gestureRecognizers?.first)
        #expect(gr.base == .tap && gr.explicitBase)
        #expect(gr.numberOfTapsRequired == nil && gr.minimumPressDuration == nil)
        #expect(s.warning("do not fit the base") == "recognizer fields that do not fit the base they were imported as, ignored: numberOfTapsRequired of MyTapGestureRecognizer 0x2 (UITapGestureRecognizer), minimumPressDuration of MyTapGestureRecognizer 0x2 (UITapGestureRecognizer)")
        #expect(s.warning("recognizer fields ignored (not modelled)") == "recognizer fields ignored (not modelled): delegate")
    }

    // MARK: malformed

    @Test func anUnclosedMustFailSetIsRefusedAtItsBrace() throws {
        let e = try #require(pasteError("""
        <UIView: 0x1; frame = (0 0; 10 10)>
        <UITapGestureRecognizer: 0x2; state = Possible; view = <UIView 0x1>; target= <(action=tap:, target=<UIView 0x1>)>; must-fail = {
            <UITapGestureRecognizer: 0x3; state = Possible; view = <UIView 0x1>; target= <(action=doubleTap:, target=<UIView 0x1>)>; numberOfTapsRequired = 2>
        """))
        #expect((e.line, e.column) == (2, 128))
        #expect(e.message.contains("must-fail set opened here is not closed"))
    }

    @Test func aDescriptionCutOffIsRefusedWhereItStops() throws {
        let e = try #require(pasteError("""
        <UIView: 0x1; frame = (0 0; 10 10)>
        <UITapGestureRecognizer: 0x2; state = Possible; view = <UIView 0x1>; target= <(action=tap:, target=<UIView 0x1>)>
        """))
        #expect((e.line, e.column) == (2, 114))
        #expect(e.message.contains("UITapGestureRecognizer 0x2 begun at line 2, column 1 is cut off"))
        // Cut inside a value.
        let view = try #require(pasteError("<UIView: 0x1; frame = (0 0; 10 10)>\n<UITapGestureRecognizer: 0x2; state = Possible; view = <UIView 0x1"))
        #expect((view.line, view.column) == (2, 67))
    }

    @Test func anUnclosedSetInsideAQuotedElementIsRefusedInTheLinePasted() throws {
        let e = try #require(pasteError(#"""
        <UIView: 0x1; frame = (0 0; 10 10)>
            "<UITapGestureRecognizer: 0x2; state = Possible; view = <UIView 0x1>; target= <(action=tap:, target=<UIView 0x1>)>; must-fail = {\n        <UIPanGestureRecognizer: 0x3; state = Possible; view = <UIView 0x1>; target= <(action=pan:, target=<UIView 0x1>)>>",
        """#))
        #expect((e.line, e.column) == (2, 133))
    }

    @Test func wrongValuesAndStrayTextAreRefused() throws {
        let flag = try #require(pasteError("<UIView: 0x1; frame = (0 0; 10 10)>\n<UITapGestureRecognizer: 0x2; state = Possible; enabled = MAYBE; view = <UIView 0x1>>"))
        #expect((flag.line, flag.column) == (2, 59))
        #expect(flag.message.contains("enabled must be YES or NO"))
        let stray = try #require(AddOns.error { () throws(ImportError) in try AddOns.recognizers("""
        (
            <UITapGestureRecognizer: 0x2; state = Possible; view = <UIView 0x1>>,
            whatever
        )
        """) })
        #expect((stray.line, stray.column) == (3, 5))
        let target = try #require(AddOns.error { () throws(ImportError) in try AddOns.recognizers("<UITapGestureRecognizer: 0x2; state = Possible; target= <(action=tap: target=<UIView 0x1>)>>") })
        #expect((target.line, target.column) == (1, 71))
        #expect(target.message.contains("','"))
    }
}
