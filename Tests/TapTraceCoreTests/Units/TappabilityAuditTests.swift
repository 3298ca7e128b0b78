import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// The tappability audit (issue 32, item 6): every interactive element hit-tested at its
/// centre, then on a 3 × 3 grid, with the explain reasons when it misses.
struct TappabilityAuditTests {
    func audit(_ rSubviews: String) throws -> TappabilityAudit {
        TappabilityAudit.run(try InputDecoder.sceneIndex(Array(Scenes.scene(rSubviews).utf8)))
    }

    func element(_ a: TappabilityAudit, _ id: String) throws -> TappabilityAudit.Element {
        try #require(a.elements.first { $0.view.id == id })
    }

    let button = #"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 60]}"#

    @Test func hittableControl() throws {
        let a = try audit(button)
        let b = try element(a, "B")
        #expect(b.status == .hittable && b.hittable && b.reasons.isEmpty)
        #expect(b.point == Point(100, 230) && b.hitTestView?.id == "B" && b.reachableFraction == 1)
        #expect(!b.smallTarget && b.interactions == [.control])
        #expect(a.unreachable == 0 && a.small == 0)
    }

    @Test func occludedControlNamesTheOccluder() throws {
        let a = try audit(button + #", {"id": "Cover", "class": "UIView", "frame": [0, 150, 390, 200]}"#)
        let b = try element(a, "B")
        #expect(b.status == .unreachable && !b.hittable && b.reachableFraction == 0)
        #expect(b.hitTestView?.id == "Cover")
        #expect(b.reasons.first?.rule == "H1" && b.reasons.first?.kind == "covered")
        #expect(b.reasons.first?.views.first?.id == "Cover")
        #expect(a.unreachable == 1)
        // The plain cover is not an interactive element itself.
        #expect(a.elements.map(\.view.id) == ["B"])
    }

    @Test func ancestorWithUserInteractionDisabled() throws {
        let explicit = try audit(#"{"id": "P", "class": "UIView", "frame": [0, 100, 390, 300], "userInteractionEnabled": false, "subviews": [{"id": "B", "class": "UIButton", "frame": [40, 100, 120, 60]}]}"#)
        let b = try element(explicit, "B")
        #expect(b.status == .unreachable && b.hitTestView?.id == "R")
        #expect(b.reasons.first?.rule == "H2" && b.reasons.first?.kind == "pruned" && b.reasons.first?.views.map(\.id) == ["P"])
        // A UILabel left at its default (H9).
        let label = try audit(#"{"id": "L", "class": "UILabel", "frame": [0, 100, 390, 300], "subviews": [{"id": "B", "class": "UIButton", "frame": [40, 100, 120, 60]}]}"#)
        #expect(try element(label, "B").reasons.first?.rule == "H9")
    }

    @Test func hiddenAndTransparent() throws {
        let hidden = try element(try audit(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 60], "hidden": true}"#), "B")
        #expect(hidden.status == .unreachable && hidden.reasons.first?.rule == "H2" && hidden.reasons.first?.kind == "pruned")
        let faint = try element(try audit(#"{"id": "B", "class": "UIButton", "frame": [40, 200, 120, 60], "alpha": 0.005}"#), "B")
        #expect(faint.status == .unreachable && faint.reasons.first?.rule == "H3")
    }

    @Test func outsideItsSuperviewsBounds() throws {
        let a = try audit(#"{"id": "P", "class": "UIView", "frame": [0, 100, 100, 100], "subviews": [{"id": "B", "class": "UIButton", "frame": [150, 10, 60, 60]}]}"#)
        let b = try element(a, "B")
        #expect(b.status == .unreachable && b.point == Point(180, 140))
        #expect(b.reasons.first?.rule == "H6" && b.reasons.first?.kind == "outsideBounds")
        #expect(b.reasons.first?.views.map(\.id) == ["P", "B"])
    }

    @Test func belowTheFoldOfAScrollViewIsOffscreen() throws {
        // Rows at 0 and 300 of a 200-pt tall scroll view with 400 pt of content; one beyond it.
        let a = try audit(#"{"id": "S", "class": "UIScrollView", "frame": [0, 100, 390, 200], "scrollView": {"contentSize": [390, 400]}, "subviews": [{"id": "Top", "class": "UIButton", "frame": [0, 0, 390, 50]}, {"id": "Below", "class": "UIButton", "frame": [0, 300, 390, 50]}, {"id": "Beyond", "class": "UIButton", "frame": [0, 500, 390, 50]}]}"#)
        #expect(try element(a, "Top").status == .hittable)
        let below = try element(a, "Below")
        #expect(below.status == .offscreen && !below.hittable && below.reasons.map(\.kind) == ["offscreen"])
        #expect(below.reasons[0].views.map(\.id) == ["S", "Below"] && below.reasons[0].text.contains("(195, 325)"))
        // Outside the content too: no scrolling reveals it (H6).
        let beyond = try element(a, "Beyond")
        #expect(beyond.status == .unreachable && beyond.reasons.first?.rule == "H6")
        #expect(a.offscreen == 1 && a.unreachable == 1)
        #expect(a.text().contains("OFF  Below (UIButton) at (195, 425): offscreen (scroll to reveal it)\n"))
    }

    @Test func zeroSize() throws {
        let a = try audit(#"{"id": "B", "class": "UIButton", "frame": [10, 100, 0, 44]}"#)
        let b = try element(a, "B")
        #expect(b.status == .unreachable && b.reasons.map(\.kind) == ["zeroSize"] && b.reasons[0].rule == "H4")
        // No area: unreachable, not a small target as well.
        #expect(!b.smallTarget && a.small == 0 && a.unreachable == 1)
    }

    @Test func partlyReachableOnTheGrid() throws {
        // The cover takes the middle column of the button's grid (x = 100), not the others.
        let a = try audit(button + #", {"id": "Cover", "class": "UIView", "frame": [80, 150, 40, 200]}"#)
        let b = try element(a, "B")
        #expect(b.status == .partlyReachable && !b.hittable)
        #expect(b.reachableFraction == 6.0 / 9 && b.reachablePoint == Point(60, 210))
        #expect(b.hitTestView?.id == "Cover" && b.reasons.first?.views.first?.id == "Cover")
        #expect(a.unreachable == 0 && a.partlyReachable == 1)
        let json = String(decoding: a.json(), as: UTF8.self)
        #expect(json.contains(#""status":"partlyReachable","hittable":false,"hitTestView":{"id":"Cover","class":"UIView"},"reachableFraction":0.667,"reachablePoint":[60,210]"#))
    }

    @Test func smallTargetIsAWarning() throws {
        let a = try audit(#"{"id": "B", "class": "UIButton", "frame": [10, 100, 30, 30]}, {"id": "Wide", "class": "UIButton", "frame": [10, 300, 200, 43.5]}, {"id": "Big", "class": "UIButton", "frame": [10, 400, 44, 44]}"#)
        #expect(try element(a, "B").smallTarget && element(a, "B").hittable)
        #expect(try element(a, "Wide").smallTarget)
        #expect(try !element(a, "Big").smallTarget)
        #expect(a.small == 2 && a.unreachable == 0)
        // On screen: a scale transform makes a 30 × 30 button 60 × 60.
        let scaled = try audit(#"{"id": "S", "class": "UIButton", "center": [100, 200], "bounds": [0, 0, 30, 30], "transform": [2, 0, 0, 2, 0, 0]}"#)
        #expect(try element(scaled, "S").size == Size(60, 60) && !element(scaled, "S").smallTarget)
    }

    @Test func recognizersTouchesAndTargets() throws {
        let a = try audit(#"{"id": "G", "class": "CardView", "frame": [0, 100, 390, 100], "gestureRecognizers": [{"id": "tap", "class": "UITapGestureRecognizer", "targets": []}]}, "# + Scenes.touchView.replacingOccurrences(of: "[20, 100, 200, 200]", with: "[20, 300, 200, 200]") + "}, "
            + #"{"id": "Plain", "class": "UIView", "frame": [0, 600, 100, 100]}, {"id": "Label", "class": "UILabel", "frame": [0, 700, 100, 100]}"#)
        #expect(a.elements.map(\.view.id) == ["G", "V"])
        #expect(try element(a, "G").interactions == [.recognizers] && element(a, "V").interactions == [.touches])
        #expect(a.elements.allSatisfy { $0.hittable })
    }

    @Test func importedAccessibilityElements() throws {
        let a = try audit(#"""
            {"id": "row", "class": "XCUIElementTypeOther", "base": "UIView", "accessibilityIdentifier": "row", "frame": [0, 100, 390, 60]},
            {"id": "buy", "class": "XCUIElementTypeButton", "base": "UIButton", "label": "Buy", "frame": [0, 200, 390, 60]},
            {"id": "title", "class": "XCUIElementTypeStaticText", "base": "UILabel", "accessibilityIdentifier": "title", "frame": [0, 300, 390, 60]},
            {"id": "box", "class": "XCUIElementTypeOther", "base": "UIView", "label": "Box", "frame": [0, 400, 390, 60]}
            """#)
        #expect(a.elements.map(\.view.id) == ["row", "buy"])
        #expect(try element(a, "row").interactions == [.accessibility])
        #expect(try element(a, "buy").interactions == [.control])
    }

    @Test func deterministicDocumentOrder() throws {
        let scene = #"{"id": "P", "class": "UIView", "frame": [0, 0, 390, 400], "subviews": [{"id": "B2", "class": "UIButton", "frame": [0, 0, 50, 50]}, {"id": "B1", "class": "UIButton", "frame": [60, 0, 50, 50]}]}, {"id": "A", "class": "UISwitch", "frame": [0, 500, 51, 31]}"#
        let a = try audit(scene), b = try audit(scene)
        #expect(a.elements.map(\.view.id) == ["B2", "B1", "A"])
        #expect(a.json() == b.json() && a.text() == b.text() && a.junit(suite: "s") == b.junit(suite: "s"))
        let json = String(decoding: a.json(), as: UTF8.self)
        #expect(json.hasPrefix(#"{"elements":[{"id":"B2","class":"UIButton","interactions":["control"],"point":[25,25],"size":[50,50],"status":"hittable","hittable":true,"hitTestView":{"id":"B2","class":"UIButton"},"reachableFraction":1,"reasons":[],"smallTarget":false}"#))
        #expect(json.hasSuffix(#""count":3,"hittable":3,"partlyReachable":0,"offscreen":0,"unreachable":0,"small":1}"#))
    }

    @Test func junitAndText() throws {
        let a = try audit(button + #", {"id": "Cover", "class": "UIView", "frame": [0, 150, 390, 200]}, {"id": "Tiny", "class": "UIButton", "frame": [0, 500, 20, 20]}"#)
        let xml = a.junit(suite: "screen <1>")
        #expect(xml.contains(#"<testsuite name="screen &lt;1&gt;" tests="2" failures="1" errors="0" skipped="0">"#))
        #expect(xml.contains(#"<testcase classname="screen &lt;1&gt;" name="B (UIButton)">"#))
        #expect(xml.contains(#"<failure type="failure" message="unreachable: the centre (100, 230) goes to Cover">"#))
        #expect(xml.contains("<system-out>ok   Tiny (UIButton) at (10, 510): hittable; small target 20 × 20 pt (&lt; 44 × 44)</system-out>"))
        let text = a.text()
        #expect(text.hasPrefix("FAIL B (UIButton) at (100, 230): unreachable; the centre goes to Cover\n    1. [H1] Cover is in front of B"))
        #expect(text.hasSuffix("2 interactive elements: 1 hittable, 0 partly reachable, 0 offscreen, 1 unreachable; 1 smaller than 44 × 44 pt\n"))
    }
}
