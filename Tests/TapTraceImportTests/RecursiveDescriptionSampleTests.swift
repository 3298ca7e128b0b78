import Testing
import TapTraceCore
@testable import TapTraceImport

/// Every real recursiveDescription dump imports, validates, round-trips, and a few points chosen
/// by reading the dump hit-test to the view a person would expect.
struct RecursiveDescriptionSampleTests {
    @Test func sentryNavigationPushMidAnimation() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_01"))
        #expect(s.scene.windows.count == 1)
        #expect(s.scene.views[s.scene.windows[0]].id == "UIWindow-0x7f893fc0ebd0")
        // The incoming screen's content view, under its non-interactive image view.
        #expect(s.hit(187, 200) == "UIView-0x7f893fc47fd0")
        // The navigation bar has userInteractionEnabled = NO during the push: the Back button
        // is not reached, the touch lands on the incoming screen below it.
        #expect(s.hit(30, 40) == "UIView-0x7f893fc47fd0")
        // The outgoing screen (frame x -112, userInteractionEnabled = NO) takes nothing, even
        // where its "add Breadcrumb" button was.
        #expect(s.hit(20, 90) == "UIView-0x7f893fc47fd0")
        // UIButtonLabel is a UILabel; its title shows on the button it belongs to.
        #expect(try s.view("UIButtonLabel-0x7f893fc451f0").base == .UILabel)
        #expect(try s.view("UIButton-0x7f893fe269a0").label == "add Breadcrumb")
        #expect(try s.view("_UINavigationBarLargeTitleView-0x7f893fe108c0").hidden == true)
        #expect(s.hasWarning("gestureRecognizers"))
        #expect(s.hasWarning("animations in flight"))
        #expect(s.hasWarning("layer (×96)"))
    }

    @Test func pointerPurgedLabels() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_02a"))
        #expect(s.scene.views.map(\.id) == ["window", "UIView-1", "UILabel-1", "UILabel-2", "UILabel-3", "UILabel-4"])
        #expect(try s.view("UILabel-1").label == "What's")
        #expect(try s.view("UILabel-1").frame == Rect(161.333, 44, 52.6667, 19.3333))
        // Labels are not interactive: a tap on "What's" or "?" lands on the root view.
        #expect(s.hit(170, 50) == "UIView-1")
        #expect(s.hit(187, 770) == "UIView-1")
        #expect(s.hit(400, 50) == nil)
    }

    @Test func pointerPurgedButton() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_02b"))
        // The button, not its image view (userInteractionEnabled = NO).
        #expect(s.hit(12, 12) == "UIButton-1")
        #expect(s.hit(24, 23) == "UIButton-1")
        #expect(s.hit(25, 12) == nil)
    }

    @Test func rotatedViewUsesItsTransformNotItsBoundingBox() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_03"))
        let rotated = try s.view("UIView-0x11ca04440")
        #expect(rotated.transform != nil)
        #expect(rotated.frame == Rect(-15.3281, -15.3281, 130.656, 130.656))
        #expect(s.hit(50, 50) == "UIView-0x11ca04440")
        #expect(s.hit(98, 50) == "UIView-0x11ca04440")
        // Inside the bounding box, outside the rotated square: the root view.
        #expect(s.hit(2, 2) == "UIView-0x11cc1e820")
        // The label under the rotated view is not interactive anyway.
        #expect(s.hit(30, 30) == "UIView-0x11ca04440")
    }

    @Test func cycriptWeChatWithElisionAndBaseClassHints() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_04"))
        // iConsoleWindow says baseClass = UIWindow: it is the window itself.
        #expect(s.scene.windows.map { s.scene.views[$0].id } == ["iConsoleWindow-0x156b6410"])
        #expect(try s.view("MMBadgeView-0x160055a0").base == .UIImageView)
        #expect(try s.view("MMUILabel-0x16004ec0").base == .UILabel)
        #expect(try s.view("MMBadgeView-0x16259810").hidden == true)
        // The lines after "..." belong to the depth-2 UITransitionView.
        let transition = try s.view("UITransitionView-0x16259610")
        #expect(transition.subviews.map { s.scene.views[$0].id } == ["UIViewControllerWrapperView-0x16243bb0", "MMBadgeView-0x160055a0", "MMBadgeView-0x16259810"])
        // The badge image view is not interactive: the touch goes to the deepest view shown below it.
        #expect(s.hit(210, 5) == "UIViewControllerWrapperView-0x1629d9a0")
        #expect(s.hit(160, 300) == "UIViewControllerWrapperView-0x1629d9a0")
        #expect(s.hasWarning("lines elided"))
    }

    @Test func cycriptAppleIDSheet() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_05"))
        let table = try s.view("UITableView-0x1081a0600")
        // contentOffset: {0, -56} is the bounds origin; contentSize is kept.
        #expect(table.bounds == Rect(0, -56, 375, 627))
        #expect(table.scrollView?.contentSize == Size(375, 524.5))
        #expect(try s.view("AAUITextView-0x104008200").base == .UITextView)
        #expect(try s.view("_UITextContainerView-0x102e24f50").frame == Rect(0, 0, 315.5, 54.5))
        #expect(try s.view("UITextFieldLabel-0x107dadc40").label == "电子邮件或电话")
        // The Apple ID text field: sheet at y 40, table scrolled by -56, cell at 155, field at 19.
        #expect(s.hit(200, 280) == "UITextField-0x10814f400")
        // Above the sheet: the dimming view that dismisses it.
        #expect(s.hit(100, 20) == "UIDimmingView-0x107eac170")
        // The Cancel bar button (a UIControl), not its non-interactive _UIModernBarButton.
        #expect(s.hit(30, 68) == "_UIButtonBarButton-0x107de7110")
        // "Forgot Apple ID?" (baseClass = UIButton) in the table footer.
        #expect(s.hit(180, 345) == "AAUIButton-0x107d9de50")
        #expect(s.hasWarning("text outside a view's own description ignored: line 50"))
    }

    @Test func mediumArticleWithoutLeadingSpaces() throws {
        let s = try Imported.recursiveDescription(try Fixtures.named("recursiveDescription_06"))
        #expect(try s.view("UIView-0x7faa328013c0").subviews.count == 2)
        #expect(s.hit(170, 340) == "UIButton-0x7faa2f408000")
        #expect(s.hit(200, 205) == "UIView-0x7faa328013c0")
        #expect(try s.view("UILabel-0x7faa328045d0").label == "Hello, world!")
    }
}
