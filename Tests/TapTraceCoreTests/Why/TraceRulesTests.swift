import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// `TraceRules` (`dispatch --text --rules`): each entry of the checkout tap named by the rule
/// it shows, and the text rendering numbering entries as `why` cites them.
struct TraceRulesTests {
    static func checkout() throws -> DispatchResult {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/checkout.request.json")
        return try TapTrace.dispatch(json: Array(try Data(contentsOf: url)))
    }

    @Test func eachKindOfEntryHasItsRule() throws {
        let r = try Self.checkout()
        let trace = r.trace
        let recognizers = Set(r.recognizers.map(\.id))
        func rule(_ match: (TraceEntry) -> Bool) -> String? {
            trace.first(where: match).flatMap { TraceRules.rule(of: $0, in: trace, recognizers: recognizers) }
        }
        #expect(rule { $0.selector == "hitTest:withEvent:" } == "H1")
        #expect(rule { $0.selector == "pointInside:withEvent:" } == "H4")
        #expect(rule { $0.selector == "touchesBegan:withEvent:" && $0.receiver?.id == "cardTap" } == "G1")
        #expect(rule { $0.selector == "touchesBegan:withEvent:" && $0.receiver?.id == "buyButton" } == "T2")
        #expect(rule { $0.selector == "gestureRecognizerShouldBegin:" } == "GS7")
        #expect(rule { $0.kind == .state && ($0.reason ?? "").hasPrefix("shouldBeginFalse") } == "GS7")
        #expect(rule { $0.kind == .state && $0.reason == "liftedEarly" } == "GS1")
        #expect(rule { $0.marker == .withhold } == "GV5")
        #expect(rule { $0.marker == .flush } == "GV7")
        #expect(rule { $0.marker == .collect } == "G2")
        #expect(rule { $0.selector == "beginTrackingWithTouch:withEvent:" } == "K2")
        #expect(rule { $0.selector == "sendAction:to:from:forEvent:" } == "A1")
        // The app's own action method, sent by UIApplication: A1.
        #expect(rule { $0.selector == "buyTapped:" } == "A1")
        #expect(rule { $0.selector == "reset" } == "GS8")
    }

    @Test func textRenderingNumbersEntriesAndNamesRules() throws {
        let r = try Self.checkout()
        let text = TextRenderer.render(r, rules: true)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("#") }
        #expect(lines.count == r.trace.count)
        for (i, line) in lines.enumerated() { #expect(line.hasPrefix("#\(i) ")) }
        #expect(text.contains("buyButton -> gestureRecognizerShouldBegin: cardTap → NO [GS7]"))
        // Without rules, the rendering is unchanged.
        #expect(!TextRenderer.render(r).contains("#0"))
    }
}
