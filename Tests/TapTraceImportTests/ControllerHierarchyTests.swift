import Testing
import TapTraceCore
@testable import TapTraceImport

/// `_printHierarchy` output read on its own: every real sample, then the grammar's edges.
struct ControllerHierarchyTests {
    private func summary(_ lines: [ControllerLine]) -> [String] {
        lines.map { l in
            let parent = l.parent.map { "\($0)" } ?? "-"
            return "\(l.controller.className)@\(parent)\(l.presented ? "+" : "")"
        }
    }

    @Test func presentedControllersAndAPopoverFromAPresentedOne() throws {
        let lines = try AddOns.controllers(try Fixtures.named("printHierarchy_01"))
        #expect(summary(lines) == [
            "PSPDFNavigationController@-", "PSCatalogViewController@0", "UINavigationController@0+",
            "PSPDFViewController@2", "PSPDFContinuousScrollViewController@3", "PSPDFNavigationController@2+",
            "PSPDFContainerViewController@5", "PSPDFStampViewController@6",
        ])
        #expect(lines[0].controller.address == "0x7d025000")
        #expect(lines[0].view?.address == "0x7b3218d0")
        #expect(lines[0].inWindow == false && lines[0].state == "disappeared")
        #expect(lines[2].inWindow && lines[2].view == ObjectReference(className: "UILayoutContainerView", address: "0x8012b7a0", offset: lines[2].view!.offset))
        #expect(lines[5].view?.address == "0x8017b490")
    }

    @Test func blankLinesInsideKeepTheDepthOfEachLine() throws {
        let lines = try AddOns.controllers(try Fixtures.named("printHierarchy_02"))
        #expect(summary(lines) == [
            "UINavigationController@-", "LyfPay.SplashController@0", "LyfPay.ContainerMenuController@0",
            "LyfPay.HomeController@2", "LyfPay.CloseMenuViewController@2", "LyfPay.MenuViewController@2",
            "VouchersViewController@0",
        ])
        #expect(lines.filter { !$0.inWindow }.count == 5)
    }

    @Test func splitViewControllerTree() throws {
        let lines = try AddOns.controllers(try Fixtures.named("printHierarchy_03"))
        #expect(lines.count == 9)
        #expect(summary(lines)[4] == "MasterViewController@2")
        #expect(lines[4].state == "appearing")
        #expect(summary(lines)[7] == "FloatingActionMenuController@6")
        #expect(lines[1].view?.className == "_UISplitViewControllerPanelImplView")
    }

    @Test func cycriptPromptAndViewsNotLoaded() throws {
        // The cy# prompt on line 2 is the add-on's command, not one of its lines.
        let text = try Fixtures.pasted("printHierarchy_04")
        let body = String(text.split(separator: "\n", maxSplits: 1)[1])
        let lines = try AddOns.controllers(body)
        #expect(lines.count == 10)
        #expect(lines.filter { $0.view == nil }.map(\.controller.className) == ["ContactsViewController", "FindFriendEntryViewController", "MoreViewController"])
        #expect(summary(lines)[5] == "ContactsViewController@4")
        #expect(lines[2].view?.className == "MMUIHookView" && !lines[2].inWindow)
        // The parser alone refuses the prompt: `DumpSections` takes it off as the command that
        // names the add-on.
        let e = try #require(AddOns.error { () throws(ImportError) in try AddOns.controllers(text) })
        #expect((e.line, e.column) == (1, 1))
    }

    @Test func sessionNavigationStack() throws {
        let lines = try AddOns.controllers(try Fixtures.named("printHierarchy_06"))
        #expect(summary(lines) == ["UINavigationController@-", "ViewController@0", "DetailViewController@0"])
        #expect(lines[2].view?.address == "0x7fc94b63c360")
    }

    /// Not in a window, UIKit prints the root itself with `+` and `presented with: (null)`,
    /// and its children with as many marks: the root's `+` is not a level.
    @Test func rootPrintedAsPresentedWithoutAWindow() throws {
        let lines = try AddOns.controllers(try Fixtures.named("printHierarchy_07a"))
        #expect(lines.count == 12)
        #expect(summary(lines).prefix(5) == ["UITabBarController@-", "UINavigationController@0", "UIPageViewController@1", "UIViewController@2", "UINavigationController@0"])
        #expect(lines[0].presented == false)
        #expect(lines.allSatisfy { $0.controller.address == nil })
        #expect(lines[2].view == nil)
        #expect(lines.filter { $0.view != nil }.allSatisfy { !$0.inWindow })
    }

    @Test func rootInAWindowWithPurgedAddresses() throws {
        let lines = try AddOns.controllers(try Fixtures.named("printHierarchy_07b"))
        #expect(lines.count == 12)
        #expect(lines.filter { $0.parent == 0 }.count == 5)
        #expect(lines[2].view?.className == "_UIPageViewControllerContentView")
        #expect(lines[0].inWindow && lines[4].inWindow == false)
    }

    // MARK: grammar

    @Test func newerIOSPrintsTheViewWithAColon() throws {
        let lines = try AddOns.controllers("<UINavigationController 0x1>, state: appeared, view: <UILayoutContainerView: 0x2>\n")
        #expect(lines[0].view?.address == "0x2")
        #expect(lines[0].view?.className == "UILayoutContainerView")
    }

    @Test func aLineThatDoesNotParseIsRefusedWhereItBreaks() throws {
        let e = try #require(AddOns.error { () throws(ImportError) in try AddOns.controllers("""
        <UINavigationController 0x1>, state: appeared, view: <UIView 0x2>
           | <ViewController 0x3>, state appeared, view: <UIView 0x4>
        """) })
        #expect((e.line, e.column) == (2, 28))
        #expect(e.message.contains("'state:'"))
        let view = try #require(AddOns.error { () throws(ImportError) in try AddOns.controllers("<A 0x1>, state: appeared, view: <UIView 0x2\n") })
        #expect((view.line, view.column) == (1, 44))
        #expect(view.message.contains("cut off"))
        let trailing = try #require(AddOns.error { () throws(ImportError) in try AddOns.controllers("<A 0x1>, state: appeared, view: <UIView 0x2> hidden\n") })
        #expect((trailing.line, trailing.column) == (1, 46))
    }

    @Test func aDepthJumpIsRefused() throws {
        let e = try #require(AddOns.error { () throws(ImportError) in try AddOns.controllers("""
        <A 0x1>, state: appeared, view: <UIView 0x2>
           |    | <B 0x3>, state: appeared, view: <UIView 0x4>
        """) })
        #expect((e.line, e.column) == (2, 11))
        #expect(e.message.contains("2 levels deep"))
    }

    @Test func malformedControllersAfterAHierarchyAreRefusedThroughTheImporter() throws {
        let e = try #require(pasteError("""
        <UIView: 0x2; frame = (0 0; 10 10)>
        <A 0x1>, state: appeared, view: <UIView 0x2>
           + <B 0x3>, state: appeared, view: <UIView 0x4>, presented with <X 0x5>
        """))
        #expect((e.line, e.column) == (3, 52))
        #expect(e.message.contains("presented with:"))
    }
}
