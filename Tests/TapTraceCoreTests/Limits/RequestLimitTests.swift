import Foundation
import SceneTestSupport
import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import TapTraceRuns
import Testing

/// What one request may cost (issue 34, item 1, and the time budget of item 2), in the engine:
/// each limit refused where its size is first known, with the limit, its value, the size and
/// the settings that raise it; never a crash, never a partial answer.
struct RequestLimitTests {
    static let scene = Scenes.scene(Scenes.touchView + "}")

    /// `count` drags of `steps` steps each, as a touches document.
    static func drags(_ count: Int, steps: Int) -> String {
        let drag = #"{"drag": {"from": [50, 150], "to": [150, 250]}, "steps": \#(steps)}"#
        return #"{"gestures": ["# + Array(repeating: drag, count: count).joined(separator: ", ") + "]}"
    }

    static func request(_ touches: String, scene: String = RequestLimitTests.scene) -> [UInt8] {
        Array(Scenes.request(scene, touches).utf8)
    }

    /// The limit a request was refused for (fails the test when it was not refused for one).
    static func exceeded(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> LimitExceeded? {
        do {
            try body()
            Issue.record("the request was accepted", sourceLocation: sourceLocation)
        } catch {
            guard case .invalid(let failure)? = error as? InputError, let exceeded = failure.exceeded else {
                Issue.record("refused for another reason: \(error)", sourceLocation: sourceLocation)
                return nil
            }
            return exceeded
        }
        return nil
    }

    // MARK: records

    /// The issue's request: drags of a million steps. They are counted from `steps` before
    /// anything is expanded; a thousand of them (a billion records: about a hundred gigabytes
    /// expanded, from a 70 KB body) are refused the same way, so the check cannot come after
    /// the expansion.
    @Test func hugeStepsAreRefusedBeforeTheyAreExpanded() throws {
        let limits = Limits(records: 20_000)
        let e = try #require(Self.exceeded { _ = try InputDecoder.request(Self.request(Self.drags(10, steps: 1_000_000)), limits: limits) })
        #expect(e == LimitExceeded(.records, maximum: 20_000, size: 10 * 1_000_002, pointer: "/touches"))
        let absurd = try #require(Self.exceeded {
            _ = try InputDecoder.request(Self.request(Self.drags(1000, steps: 1_000_000)), limits: limits)
        })
        #expect(absurd.size == 1000 * 1_000_002)
        // A sequence built in code may give any step count: the count saturates instead of
        // overflowing, and `expand` refuses it before reserving anything.
        let drag = GestureShorthand.drag(from: .point(Point(0, 0)), to: .point(Point(1, 1)), t: nil, duration: nil, steps: Int.max)
        let sequence = TouchSequence(gestures: [drag, drag])
        #expect(TouchSequenceValidator.recordCount(sequence) == Int.max)
        var issues = IssueList()
        #expect(TouchSequenceValidator.expand(sequence, at: "/touches", issues: &issues, maxRecords: 20_000).isEmpty)
        #expect(issues.exceeded?.size == Int.max)
    }

    /// Each change of a touch counts: a tap 2, a double tap 4, a long press 2, a drag of n
    /// steps n + 2, an explicit event the touches it changes. At the limit is allowed.
    @Test func recordsAreCountedAsTheyExpand() throws {
        let touches = #"{"events": [{"t": 0, "touches": [{"id": "A", "phase": "began", "at": [50, 150]}, {"id": "B", "phase": "began", "at": [60, 160]}]}, {"t": 0.1, "touches": [{"id": "A", "phase": "ended", "at": [50, 150]}, {"id": "B", "phase": "ended", "at": [60, 160]}]}], "gestures": [{"tap": [50, 150], "t": 1}, {"doubleTap": [50, 150], "t": 2}, {"longPress": [50, 150], "t": 3}, {"drag": {"from": [50, 150], "to": [60, 160]}, "steps": 5, "t": 5}]}"#
        let (seq, records) = try InputDecoder.touches(Array(touches.replacingOccurrences(of: "{\"events\"", with: "{\"format\": \"taptrace/touches@1\", \"events\"").utf8))
        let expected = 4 + 2 + 4 + 2 + 7
        #expect(TouchSequenceValidator.recordCount(seq) == expected)
        #expect(records.reduce(0) { $0 + $1.touches.count } == expected)
        _ = try InputDecoder.request(Self.request(touches), limits: Limits(records: expected))
        let e = try #require(Self.exceeded { _ = try InputDecoder.request(Self.request(touches), limits: Limits(records: expected - 1)) })
        #expect(e.size == expected && e.maximum == expected - 1)
    }

    /// The limit is per request: the sequences one reader reads add up (a check request's cases).
    @Test func recordsAddUpOverARequestsCases() throws {
        let one = #"{"name": "c", "scene": \#(Self.scene), "touches": {"gestures": [{"tap": [50, 150]}]}, "expect": {}}"#
        let body = Array(#"{"cases": [\#(one), \#(one), \#(one)]}"#.utf8)
        #expect(try CaseDocument.decodeCases(body, limits: Limits(records: 6)).count == 3)
        let e = try #require(Self.exceeded { _ = try CaseDocument.decodeCases(body, limits: Limits(records: 5)) })
        #expect(e.size == 6 && e.pointer == "/cases/2/touches")
    }

    // MARK: views

    /// A scene past the views limit is refused before it is validated: the invalid view in it
    /// (a negative width) is not reported, the limit is.
    @Test func viewsAreCountedBeforeValidation() throws {
        let views = (0..<5).map { #"{"id": "v\#($0)", "class": "UIView", "frame": [0, 0, \#($0 == 4 ? -1 : 10), 10]}"# }
        let scene = Scenes.scene(views.joined(separator: ", "))
        let bytes = Array(scene.utf8)
        // W, R and five views.
        let e = try #require(Self.exceeded { _ = try InputDecoder.scene(bytes, limits: Limits(views: 6)) })
        #expect(e == LimitExceeded(.views, maximum: 6, size: 7, pointer: ""))
        #expect(Self.exceeded { _ = try InputDecoder.sceneIndex(bytes, limits: Limits(views: 6)) }?.limit == .views)
        #expect(Self.exceeded { _ = try InputDecoder.request(Self.request(Scenes.tap(5, 5), scene: scene), limits: Limits(views: 6)) }?.pointer == "/scene")
        // Within the limit, the invalid view is what is wrong.
        do throws(InputError) {
            _ = try InputDecoder.scene(bytes, limits: Limits(views: 7))
            Issue.record("an invalid scene was accepted")
        } catch {
            guard case .invalid(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.exceeded == nil)
            #expect(failure.issues.map(\.pointer) == ["/windows/0/subviews/0/subviews/4/frame/2"])
        }
    }

    // MARK: trace entries

    /// A run whose trace passes the limit stops at the next record; the budget says why, and
    /// the result is not to be used. Under the limit, the run is the unbounded one, entry for
    /// entry.
    @Test func aRunStopsWhenItsTracePassesTheLimit() throws {
        let request = try InputDecoder.request(Self.request(Self.drags(1, steps: 200)))
        let index = SceneIndex(validated: request.scene)
        let full = TapTrace.dispatch(index, records: request.records)
        #expect(full.trace.count > 400)

        let bounded = WorkBudget(limits: Limits(traceEntries: 100))
        let stopped = TapTrace.dispatch(index, records: request.records, budget: bounded)
        guard case .limit(let e)? = bounded.stop else { Issue.record("not stopped: \(String(describing: bounded.stop))"); return }
        #expect(e.limit == .traceEntries && e.maximum == 100 && e.isLowerBound)
        #expect(e.size > 100 && e.size < full.trace.count)
        #expect(stopped.trace.count == e.size)
        #expect(throws: WorkStop.self) { try bounded.finish() }

        let roomy = WorkBudget(limits: Limits(traceEntries: full.trace.count))
        let same = TapTrace.dispatch(index, records: request.records, budget: roomy)
        #expect(roomy.stop == nil)
        #expect(ResultEncoder.encode(same) == ResultEncoder.encode(full))
    }

    /// A budget that stopped stops everything that shares it: a why answer's what-if runs and
    /// the next case of a check run nothing more.
    @Test func aStoppedBudgetStopsTheRestOfTheRequest() throws {
        let request = try InputDecoder.request(Self.request(Self.drags(1, steps: 200)))
        let index = SceneIndex(validated: request.scene)
        let budget = WorkBudget(limits: Limits(traceEntries: 50))
        _ = try Why.answer(WhyQuestion(.view("V"), expect: .hit), index: index, records: request.records, budget: budget)
        #expect(budget.stop != nil)
        let again = TapTrace.dispatch(index, records: request.records, budget: budget)
        #expect(again.trace.isEmpty)
        // A case whose run was stopped fails, saying so, whether or not its caller asks the budget.
        let body = #"{"scene": \#(Self.scene), "touches": \#(Self.drags(1, steps: 200)), "expect": {}}"#
        let outcome = CaseChecker.run(try CaseDocument.decode(Array(body.utf8)), budget: budget)
        #expect(!outcome.passed)
        #expect(outcome.diff.contains("stopped"))
    }

    // MARK: time

    /// A deadline already passed stops the run at its first record; a heavy run under a budget
    /// of a millisecond stops long before its end; a cancellation stops it as well.
    @Test func aRunStopsPastItsDeadlineOrWhenCancelled() throws {
        let request = try InputDecoder.request(Self.request(Self.drags(1, steps: 20_000)))
        let index = SceneIndex(validated: request.scene)
        let expired = WorkBudget(time: .seconds(1), start: .now - .seconds(2))
        let none = TapTrace.dispatch(index, records: request.records, budget: expired)
        #expect(expired.stop == .timeBudget(allowed: .seconds(1)))
        #expect(none.trace.isEmpty)

        let full = TapTrace.dispatch(index, records: request.records, trace: true)
        let tiny = WorkBudget(time: .milliseconds(1))
        let partial = TapTrace.dispatch(index, records: request.records, budget: tiny)
        #expect(tiny.stop == .timeBudget(allowed: .milliseconds(1)))
        #expect(partial.trace.count < full.trace.count)

        final class Flag: WorkCancellation, @unchecked Sendable { var isCancelled = true }
        let cancelled = WorkBudget(cancellation: Flag())
        _ = TapTrace.dispatch(index, records: request.records, budget: cancelled)
        #expect(cancelled.stop == .cancelled)
    }

    // MARK: the problem document

    /// The problem names the limit, its value, the size, and the flag and variable that raise it.
    @Test func theProblemNamesTheLimitAndHowToRaiseIt() throws {
        var failure: ValidationFailure?
        do throws(InputError) {
            _ = try InputDecoder.request(Self.request(Self.drags(10, steps: 1_000_000)), limits: Limits(records: 20_000))
        } catch {
            if case .invalid(let f) = error { failure = f }
        }
        let problem = Problem(try #require(failure))
        #expect(problem.kind == .limitExceeded)
        #expect(problem.detail == "The touches expand to 10,000,020 touch records; at most 20,000 touch records per request"
                + " (gestures expanded) are allowed (raise it with --max-records or TAPTRACE_MAX_RECORDS).")
        let document = try JSONTape(parsing: problem.json(status: 422))
        let root = document.root
        #expect(document.member(root, "type").flatMap { document.string($0) } == "https://taptrace.dev/problems/limit-exceeded")
        #expect(document.member(root, "pointer").flatMap { document.string($0) } == "/touches")
        let limit = try #require(document.member(root, "limit"))
        #expect(document.member(limit, "name").flatMap { document.string($0) } == "records")
        #expect(document.member(limit, "maximum").flatMap { document.number($0) } == 20_000)
        #expect(document.member(limit, "size").flatMap { document.number($0) } == 10_000_020)
        #expect(document.member(limit, "flag").flatMap { document.string($0) } == "--max-records")
        #expect(document.member(limit, "environmentVariable").flatMap { document.string($0) } == "TAPTRACE_MAX_RECORDS")

        let late = Problem(WorkStop.timeBudget(allowed: .milliseconds(2500)))
        #expect(late.kind == .timeBudgetExceeded && late.retryAfter == 3)
        #expect(late.detail.contains("2.5 s") && late.detail.contains("--request-time-budget"))
    }

    /// Every limit's settings follow one pattern.
    @Test func eachLimitHasAFlagAndAVariable() {
        #expect(Limit.allCases.map(\.flag) == ["--max-records", "--max-trace-entries", "--max-views", "--max-response-bytes",
                                               "--max-read-bytes", "--max-geometry-views"])
        #expect(Limit.allCases.map(\.environmentVariable) == ["TAPTRACE_MAX_RECORDS", "TAPTRACE_MAX_TRACE_ENTRIES",
                                                              "TAPTRACE_MAX_VIEWS", "TAPTRACE_MAX_RESPONSE_BYTES",
                                                              "TAPTRACE_MAX_READ_BYTES", "TAPTRACE_MAX_GEOMETRY_VIEWS"])
        for limit in Limit.allCases { #expect(Limits.unlimited[limit] == .max) }
        #expect(Limits.serviceDefaults.views >= 100_001)
    }
}
