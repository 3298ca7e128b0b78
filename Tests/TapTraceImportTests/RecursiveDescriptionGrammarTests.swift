import Foundation
import Testing
import TapTraceCore
@testable import TapTraceImport

private func rdError(_ text: String) -> ImportError? {
    importError { () throws(ImportError) in try RecursiveDescriptionParser.parse(Array(text.utf8)) }
}

/// The grammar of recursiveDescription lines, one edge case at a time.
struct RecursiveDescriptionGrammarTests {
    // MARK: brackets

    @Test func nestedBracketsStayInsideTheirField() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100); configuration = <A: 0x2; x = <B: 0x3; y = {1, (2; 3)}>; z = [1; 2]>; animations = { position=<CASpringAnimation: 0x4>; opacity=<CABasicAnimation: 0x5>; }; hidden = YES; layer = <CALayer: 0x6>>
        """)
        let w = try s.view("UIWindow-0x1")
        #expect(w.frame == Rect(0, 0, 100, 100))
        #expect(w.hidden == true)
        #expect(s.hasWarning("configuration"))
    }

    @Test func wrappedDescriptionAndTrailingText() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <<_UITextContainerView: 0x2; frame = (0 0; 50 50); layer = <CALayer: 0x3>> minSize = {0, 5}, textContainer = <NSTextContainer: 0x4 size = (1,2); a = YES>; lineBreakMode = 0>
           | <_UIBarBackgroundShadowView: 0x5; frame = (50 50; 10 10); layer = <CALayer: 0x6>> clientRequestedContentView effect=none
        """)
        #expect(try s.view("_UITextContainerView-0x2").frame == Rect(0, 0, 50, 50))
        #expect(try s.view("_UIBarBackgroundShadowView-0x5").frame == Rect(50, 50, 10, 10))
        #expect(s.hasWarning("text outside a view's own description ignored: line 2, line 3"))
        #expect(s.hit(55, 55) == "_UIBarBackgroundShadowView-0x5")
    }

    @Test func genericSwiftClassName() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <SwiftUI._UIHostingView<SwiftUI.ModifiedContent<Text, Pad>>: 0x2; frame = (0 0; 10 10)>
        """)
        #expect(try s.view("SwiftUI._UIHostingView<SwiftUI.ModifiedContent<Text, Pad>>-0x2").base == .UIView)
    }

    @Test func quotedTextMayHoldQuotesSemicolonsAndBrackets() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UILabel: 0x2; frame = (0 0; 10 10); text = 'What's > 3; (yes'; userInteractionEnabled = NO>
           | <UILabel: 0x3; frame = (0 0; 10 10); text = '\\u7535\\u5b50 \\xa0ok'; userInteractionEnabled = NO>
           | <UILabel: 0x4; frame = (0 0; 10 10); text = ''; userInteractionEnabled = NO>
        """)
        #expect(try s.view("UILabel-0x2").label == "What's > 3; (yes")
        #expect(try s.view("UILabel-0x2").userInteractionEnabled == nil)
        #expect(try s.view("UILabel-0x3").label == "电子 \u{a0}ok")
        #expect(try s.view("UILabel-0x4").label == nil)
    }

    @Test func mismatchedBracketIsRefusedAtTheBracket() throws {
        let e = try #require(rdError("<UIView: 0x1; frame = (0 0; 10 10]>"))
        #expect((e.line, e.column) == (1, 34))
        #expect(e.message.contains("does not close the '('"))
    }

    @Test func unclosedBracketIsRefusedAtTheOpener() throws {
        let e = try #require(rdError("<UIView: 0x1; frame = (0 0; 10 10); layer = <CALayer: 0x2>"))
        #expect((e.line, e.column) == (1, 59))
        #expect(e.message.contains("begun at column 1 is not closed"))
        let e2 = try #require(rdError("<UIView: 0x1; frame = (0 0; 10 10); animations = { a=<B: 0x2>; >"))
        #expect((e2.line, e2.column) == (1, 64))
        #expect(e2.message.contains("'>' does not close the '{' at column 50"))
        let e3 = try #require(rdError("<UIView: 0x1; frame = (0 0; 10 10"))
        #expect((e3.line, e3.column) == (1, 23))
        #expect(e3.message.contains("'(' is not closed on this line"))
    }

    @Test func unclosedQuotedText() throws {
        let e = try #require(rdError("<UILabel: 0x1; frame = (0 0; 10 10); text = 'cut off"))
        #expect((e.line, e.column) == (1, 45))
    }

    // MARK: spacing

    @Test func oddSpacingTabsAndBarePipes() throws {
        let s = try Imported.recursiveDescription(
            "<UIWindow: 0x1;   frame = ( 0  0 ;  200   100 ) ;hidden = NO>   \n"
            + "|<UIView: 0x2; frame = (0 0; 100 100)>\n"
            + "\t|\t|<UIButton: 0x3; frame = (10 10; 20 20)>\n"
            + " | <UIView: 0x4; frame = (100 0; 100 100)>\n")
        #expect(try s.view("UIWindow-0x1").frame == Rect(0, 0, 200, 100))
        #expect(try s.view("UIView-0x2").subviews.map { s.scene.views[$0].id } == ["UIButton-0x3"])
        #expect(try s.view("UIWindow-0x1").subviews.count == 2)
        #expect(s.hit(15, 15) == "UIButton-0x3")
        #expect(s.hit(150, 50) == "UIView-0x4")
    }

    @Test func crlfGivesTheSameSceneAndColumns() throws {
        let lf = """
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UIView: 0x2; frame = (0 0; 50 50)>
           |    | <UIButton: 0x3; frame = (5 5; 10 10)>
        """
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"
        let a = try Imported.recursiveDescription(lf)
        let b = try Imported.recursiveDescription(crlf)
        #expect(a.scene == b.scene)
        #expect(b.hit(8, 8) == "UIButton-0x3")
        let bad = "<UIWindow: 0x1; frame = (0 0; 100 100)>\r\n   | <UIView: 0x2; frame = (0 0; 50)>\r\n"
        let e = try #require(rdError(bad))
        #expect((e.line, e.column) == (2, 36))
    }

    // MARK: missing and defaulted fields

    @Test func missingFieldsTakeUIKitDefaults() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UIView: 0x2>
           | <UIImageView: 0x3; frame = (0 0; 40 40); userInteractionEnabled = NO>
           | <UILabel: 0x4; frame = (50 50; 40 40)>
        """)
        let bare = try s.view("UIView-0x2")
        #expect(bare.frame == Rect(0, 0, 0, 0))
        #expect(bare.hidden == nil && bare.alpha == nil && bare.userInteractionEnabled == nil)
        #expect(s.hasWarning("views without a frame imported as (0 0; 0 0)"))
        // userInteractionEnabled = NO on an image view is its class default: not written.
        #expect(try s.view("UIImageView-0x3").userInteractionEnabled == nil)
        #expect(s.hit(10, 10) == "UIWindow-0x1")
        // A label whose line lacks `userInteractionEnabled = NO` (which UIKit prints whenever it
        // is NO) had it turned on: imported as interactive, with a warning naming it.
        #expect(try s.view("UILabel-0x4").userInteractionEnabled == true)
        #expect(s.hit(60, 60) == "UILabel-0x4")
        #expect(s.hasWarning("lacks userInteractionEnabled = NO"))
    }

    @Test func purgedAddressesGiveNumberedIdsAndRepeatsStayUnique() throws {
        let s = try Imported.recursiveDescription("""
        <UIView; frame = (0 0; 100 100)>
           | <UIView; frame = (0 0; 10 10)>
           | <UIButton: 0x7; frame = (0 0; 10 10)>
           | <UIButton: 0x7; frame = (20 0; 10 10)>
        """)
        #expect(s.scene.views.map(\.id) == ["window", "UIView-1", "UIView-2", "UIButton-0x7", "UIButton-0x7-2"])
    }

    @Test func valuesOfTheWrongFormAreRefusedWhereTheyGoWrong() throws {
        let alpha = try #require(rdError("<UIView: 0x1; frame = (0 0; 1 1); alpha = 1.5>"))
        #expect((alpha.line, alpha.column) == (1, 43))
        let hidden = try #require(rdError("<UIView: 0x1; frame = (0 0; 1 1); hidden = MAYBE>"))
        #expect((hidden.line, hidden.column) == (1, 44))
        #expect(hidden.message.contains("YES or NO"))
        let transform = try #require(rdError("<UIView: 0x1; frame = (0 0; 1 1); transform = [1, 0, 0, 1, 0]>"))
        #expect((transform.line, transform.column) == (1, 61))
        let frame = try #require(rdError("<UIView: 0x1; frame = (0 0; -1 1)>"))
        #expect(frame.message.contains("negative"))
    }

    @Test func nonFiniteFrameIsANeverHitView() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UIView: 0x2; frame = (nan nan; 0 0)>
        """)
        #expect(try s.view("UIView-0x2").frame == Rect(0, 0, 0, 0))
        #expect(s.hasWarning("not finite"))
    }

    // MARK: structure

    @Test func depthJumpIsRefused() throws {
        let e = try #require(rdError("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UIView: 0x2; frame = (0 0; 50 50)>
           |    |    | <UIView: 0x3; frame = (0 0; 5 5)>
        """))
        #expect((e.line, e.column) == (3, 16))
        #expect(e.message.contains("3 levels deep"))
    }

    @Test func notADumpIsRefusedAtItsFirstLine() throws {
        let e = try #require(rdError("  hello world\n"))
        #expect((e.line, e.column) == (1, 3))
        let empty = try #require(rdError("\n\n"))
        #expect(empty.line == 3)
    }

    @Test func commentPromptElisionAndBackticksAreSkipped() throws {
        let s = try Imported.recursiveDescription("""
        # copied from Xcode
        (lldb) po [[UIApp keyWindow] recursiveDescription]
        `<UIWindow: 0x1; frame = (0 0; 100 100)>
           | <UIView: 0x2; frame = (0 0; 50 50)>
        ...
           | <UIView: 0x3; frame = (50 50; 50 50)>`
        """)
        #expect(s.scene.views.map(\.id) == ["UIWindow-0x1", "UIView-0x2", "UIView-0x3"])
        #expect(s.hasWarning("lines elided in the dump ('...'): the views they stood for are missing, and views after them may hang under the wrong parent: line 5"))
        #expect(s.hasWarning("debugger prompt lines skipped: line 2"))
        let e = try #require(rdError("# note\n<UIView: 0x1; frame = (0 0)>"))
        #expect(e.line == 2)
    }

    @Test func windowsAndSynthesizedWindows() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (20 40; 100 100)>
           | <UIButton: 0x2; frame = (10 10; 20 20)>
           | <UIWindow: 0x3; frame = (50 50; 10 10)>
        <UITextEffectsWindow: 0x4; frame = (0 0; 320 480); hidden = YES>
        <UIView: 0x5; frame = (0 0; 5 5)>
        """)
        #expect(s.scene.windows.map { s.scene.views[$0].id } == ["window", "UITextEffectsWindow-0x4", "window-2"])
        // The synthesized window has the top view's frame, and the view keeps its own frame.
        let window = try s.view("window")
        #expect(window.frame == Rect(20, 40, 100, 100))
        #expect(window.bounds == Rect(20, 40, 100, 100))
        #expect(try s.view("UIView-0x1").frame == Rect(20, 40, 100, 100))
        #expect(s.hit(35, 55) == "UIButton-0x2")
        #expect(s.hit(25, 45) == "UIView-0x1")
        // A window class below the top is a plain view.
        let nested = try s.view("UIWindow-0x3")
        #expect(nested.base == .UIView && nested.explicitBase)
        #expect(s.hasWarning("windows below the top of the dump imported as plain views: UIWindow"))
        #expect(try s.view("UITextEffectsWindow-0x4").hidden == true)
    }

    @Test func baseClassHintsAndUIKitPrivateClasses() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <MyApp.FancyButton: 0x2; baseClass = UIButton; frame = (0 0; 10 10)>
           |    | <UIButtonLabel: 0x3; frame = (0 0; 10 10); text = 'Go'; userInteractionEnabled = NO>
           | <MyApp.Cell: 0x4; baseClass = UITableViewCell; frame = (0 10; 10 10)>
           | <MyApp.Bar: 0x5; baseClass = UINavigationBar; frame = (0 20; 10 10)>
           | <UIButtonBackground: 0x6; frame = (0 30; 10 10)>
           | <_UIButtonBarButton: 0x7; frame = (0 40; 10 10)>
        """)
        let fancy = try s.view("MyApp.FancyButton-0x2")
        #expect(fancy.base == .UIButton && fancy.explicitBase)
        #expect(fancy.label == "Go")
        #expect(try s.view("UIButtonLabel-0x3").base == .UILabel)
        #expect(try s.view("MyApp.Cell-0x4").base == .UITableViewCell)
        #expect(try s.view("MyApp.Bar-0x5").base == .UIView)
        // A UIKit-looking prefix is not a base: only exact names count.
        #expect(try s.view("UIButtonBackground-0x6").base == .UIView)
        #expect(try s.view("_UIButtonBarButton-0x7").base == .UIControl)
        #expect(s.hit(5, 5) == "MyApp.FancyButton-0x2")
    }

    @Test func scrollViewOffsetIsTheBoundsOrigin() throws {
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 200)>
           | <MyList: 0x2; frame = (0 0; 100 200); layer = <CALayer: 0x3>; contentOffset: {0, 50}; contentSize: {100, 1000}; adjustedContentInset: {0, 0, 0, 0}>
           |    | <UIButton: 0x4; frame = (0 100; 100 40)>
        """)
        let list = try s.view("MyList-0x2")
        #expect(list.base == .UIScrollView)
        #expect(list.bounds == Rect(0, 50, 100, 200))
        #expect(list.scrollView?.contentSize == Size(100, 1000))
        // Content y 100 is on screen at 50 once scrolled by 50.
        #expect(s.hit(50, 60) == "UIButton-0x4")
        #expect(s.hit(50, 110) == "MyList-0x2")
    }

    @Test func transformThatHidesTheSizeAssumesASquare() throws {
        let r = 0.5.squareRoot()
        let box = 20 * 2 * r  // a 20×20 square turned 45°
        let s = try Imported.recursiveDescription("""
        <UIWindow: 0x1; frame = (0 0; 100 100)>
           | <Spinner: 0x2; frame = (\(50 - box / 2) \(50 - box / 2); \(box) \(box)); transform = [\(r), \(r), -\(r), \(r), 0, 0]>
        """)
        let spinner = try s.view("Spinner-0x2")
        let bounds = try #require(spinner.bounds)
        #expect(abs(bounds.size.width - 20) < 1e-9 && abs(bounds.size.height - 20) < 1e-9)
        #expect(s.hit(50, 50) == "Spinner-0x2")
        // Inside the bounding box, outside the turned square.
        #expect(s.hit(50 - box / 2 + 1, 50 - box / 2 + 1) == "UIWindow-0x1")
        #expect(s.hasWarning("square bounds was assumed"))
    }

    // MARK: size

    /// Timed by `taptrace-bench import`, not here: tests do not assert on wall-clock time.
    @Test func twentyThousandLineDumpImports() throws {
        var text = "<UIWindow: 0x1; frame = (0 0; 400 800); gestureRecognizers = <NSArray: 0x2>; layer = <UIWindowLayer: 0x3>>\n"
        var line = 1
        while line < 20_000 {
            // Runs of 40 ever deeper views, then back up to depth 1.
            let depth = (line - 1) % 40 + 1
            let prefix = String(repeating: "   |", count: depth)
            text += "\(prefix) <UIView: 0x\(String(line + 16, radix: 16)); frame = (1 1; \(400 - depth) 700); autoresize = W+H; layer = <CALayer: 0x9>>\n"
            line += 1
        }
        let s = try Imported.recursiveDescription(text)
        #expect(s.scene.views.count == 20_000)
        // The last view of the last full run is the deepest one at (40, 40) on screen.
        #expect(s.hit(100, 100) != nil)
        #expect(s.warnings.count <= 3)
    }

    /// The builder keeps open views on an explicit stack. (Deeper dumps are bounded by their
    /// own size: a line at depth d has d '|' characters.)
    @Test func deepNestingIsIterative() throws {
        var text = "<UIWindow: 0x1; frame = (0 0; 400 800)>\n"
        for depth in 1..<1_000 { text += String(repeating: "|", count: depth) + "<UIView: 0x\(String(depth + 1, radix: 16)); frame = (0 0; 100 100)>\n" }
        let s = try Imported.recursiveDescription(text)
        #expect(s.scene.views.count == 1_000)
        #expect(s.hit(50, 50) == "UIView-0x3e8")
    }
}
