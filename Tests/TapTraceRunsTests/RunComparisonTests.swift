import SceneTestSupport
import TapTraceCore
@testable import TapTraceRuns
import TapTraceJSON
import Testing

/// Comparison and outcome digests on real dispatches: a button inside a card that has a tap
/// recognizer (SC-03), before and after the card's recognizer changes.
struct RunComparisonTests {
    static let button = #"{"id": "B", "class": "UIButton", "frame": [40, 50, 120, 44], "targets": [{"events": ["touchUpInside"], "target": "VC", "action": "buy:"}]}"#

    static func card(cancels: Bool = true, buttonVisible: Bool = true) -> String {
        #"{"id": "C", "class": "UIView", "frame": [0, 150, 390, 300], "gestureRecognizers": [{"id": "tapC", "class": "UITapGestureRecognizer", "cancelsTouchesInView": \#(cancels), "targets": [{"target": "VC", "action": "cardTapped:"}]}], "subviews": [\#(buttonVisible ? button : "")]}"#
    }

    static func run(_ subviews: String, x: Double = 100, y: Double = 220) throws -> DispatchResult {
        try Scenes.run(Scenes.scene(subviews), Scenes.tap(x, y))
    }

    @Test func identicalRunsCompareEqual() throws {
        let a = try Self.run(Self.card()), b = try Self.run(Self.card())
        let c = RunComparison(a, b)
        #expect(c.identical)
        #expect(!c.outcomeChanged)
        #expect(c.differences.isEmpty)
        #expect(c.unchanged == a.trace.count)
        #expect(c.script == [.equal(aSeq: 1, bSeq: 1, count: a.trace.count)])
        #expect(RunOutcome(a).digest == RunOutcome(b).digest)
    }

    @Test func removedButtonChangesFirstResponderActionsAndTrace() throws {
        let a = try Self.run(Self.card())
        let b = try Self.run(Self.card(buttonVisible: false))
        let c = RunComparison(a, b)
        #expect(!c.identical)
        #expect(c.outcomeChanged)
        #expect(RunOutcome(a).digest != RunOutcome(b).digest)
        let fields = c.differences.map(\.field)
        #expect(fields.contains("firstResponder"))
        #expect(fields.contains("responderChain"))
        #expect(fields.contains("touches[T1].hitTestView"))
        #expect(fields.contains("recognizers[tapC].states"))
        #expect(c.differences.contains { $0.field == "actions" && $0.before?.hasPrefix("buy: from B to VC") == true && $0.after == nil })
        #expect(c.differences.contains { $0.field == "actions" && $0.after?.hasPrefix("cardTapped: from tapC") == true })
        let first = c.differences.first { $0.field == "firstResponder" }
        #expect(first?.before == "B (UIButton)")
        #expect(first?.after == "C (UIView)")
        // B's calls are gone, the card's action call is new.
        #expect(c.removed.contains { $0.receiver?.id == "B" && $0.selector == "touchesBegan:withEvent:" })
        #expect(c.inserted.contains { $0.receiver?.id == "VC" && $0.selector == "cardTapped:" })
        // Every entry of both traces is accounted for exactly once.
        #expect(c.unchanged + c.changed.count + c.removed.count == a.trace.count)
        #expect(c.unchanged + c.changed.count + c.inserted.count == b.trace.count)
    }

    @Test func movedTouchShowsChangedArgumentsOnAlignedEntries() throws {
        let a = try Self.run(Self.card(), x: 100, y: 220)
        let b = try Self.run(Self.card(), x: 110, y: 222)
        let c = RunComparison(a, b)
        #expect(!c.outcomeChanged)
        #expect(c.removed.isEmpty && c.inserted.isEmpty)
        let hitTest = c.changed.first { $0.a.selector == "hitTest:withEvent:" }
        #expect(hitTest?.fields == [.args])
        #expect(!c.identical)
    }

    @Test func comparisonJSONNamesEveryPart() throws {
        let a = try Self.run(Self.card()), b = try Self.run(Self.card(buttonVisible: false))
        var w = JSONWriter()
        w.beginObject()
        RunComparison(a, b).writeMembers(to: &w)
        w.endObject()
        let tape = try JSONTape(parsing: w.bytes)
        let keys = tape.members(tape.root).map { tape.string($0.key)! }
        #expect(keys == ["identical", "outcomeChanged", "outcome", "differences", "trace"])
        let text = w.text
        #expect(text.contains("\"op\":\"removed\""))
        #expect(text.contains("\"op\":\"inserted\""))
        #expect(text.contains("\"field\":\"firstResponder\""))
    }

    @Test func digestIgnoresTheTraceButNotTheActions() throws {
        var a = try Self.run(Self.card())
        let original = RunOutcome(a).digest
        // Two hit-test passes (H12) lengthen the trace but change nothing of the outcome.
        let twoPasses = try Scenes.run(Scenes.scene(Self.card()), Scenes.tap(100, 220), knobs: #"{"hitTestPasses": 2}"#)
        #expect(twoPasses.trace.count > a.trace.count)
        #expect(RunOutcome(twoPasses).digest == original)
        #expect(!RunComparison(a, twoPasses).identical)
        a.actions[0].target = "someoneElse"
        #expect(RunOutcome(a).digest != original)
        #expect(RunOutcome(a).digest.hasPrefix("o1:"))
        #expect(RunOutcome(a).digest.count == 3 + 32)
    }

    /// Digests are stored with every run and compared with new ones by replay: the function
    /// must not change without a new prefix (`o2:`) and a migration. This pins its value.
    @Test func digestIsStable() throws {
        let a = try Self.run(Self.card())
        #expect(RunOutcome(a).canonicalJSON.count == 367)
        #expect(RunOutcome(a).digest == "o1:c6cb503bf49f93f92e8e8ea051ab8f86")
    }
}
