import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// Strict validation: every issue with its JSON pointer, all issues of a document at once.
struct ValidationTests {
    func issues(_ scene: String, _ touches: String = Scenes.tap(10, 10), knobs: String = "") -> [ValidationIssue] {
        do {
            _ = try TapTrace.dispatch(json: Array(Scenes.request(scene, touches, knobs: knobs).utf8))
            return []
        } catch {
            if case .invalid(let f) = error { return f.issues }
            Issue.record("expected a validation failure, got \(error)")
            return []
        }
    }

    func has(_ list: [ValidationIssue], _ pointer: String, _ fragment: String) -> Bool {
        list.contains { $0.pointer == pointer && $0.message.contains(fragment) }
    }

    @Test func unknownKeySuggestsTheRightOne() {
        let list = issues(Scenes.scene(#"{"id": "A", "class": "UIView", "frame": [0, 0, 10, 10], "userInteractionEnable": false}"#))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/0/userInteractionEnable", "did you mean \"userInteractionEnabled\"?"))
    }

    @Test func everyIssueIsReported() {
        let list = issues(Scenes.scene("""
            {"id": "A", "class": "UIView", "frame": [0, 0, -1, 10], "alpha": 1.5},
            {"id": "A", "class": "UIView", "frame": [0, 0, 10, 10], "hidden": "yes"},
            {"id": "B", "class": "UIButton", "frame": [0, 0, 10, 10], "targets": [{"events": ["touchUpInside"], "target": "Nobody", "action": "go:"}]}
            """))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/0/frame/2", "width must be ≥ 0"))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/0/alpha", "between 0 and 1"))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/1/hidden", "must be true or false"))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/1/id", "duplicate id \"A\""))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/2/targets/0/target", "\"Nobody\" is not an id"))
        #expect(list.count == 5)
    }

    @Test func duplicateIdsAcrossKinds() {
        let list = issues(Scenes.scene(#"{"id": "VC", "class": "UIView", "frame": [0, 0, 10, 10], "gestureRecognizers": [{"id": "W", "class": "UITapGestureRecognizer", "targets": []}]}"#))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/0/id", "duplicate id \"VC\""))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/0/gestureRecognizers/0/id", "duplicate id \"W\""))
    }

    @Test func unknownReferences() {
        let list = issues(Scenes.scene("""
            {"id": "A", "class": "UIView", "frame": [0, 0, 10, 10], "overrides": {"hitTest": {"redirect": "Ghost"}, "nextResponder": "Ghost2"},
             "gestureRecognizers": [{"id": "g", "class": "UITapGestureRecognizer", "requireToFail": ["nope"], "delegate": {"id": "Who"},
                                     "targets": [{"target": "Missing", "action": "x:"}]}],
             "subviews": [{"id": "P", "class": "UIView", "frame": [0, 0, 1, 1], "viewController": {"id": "PVC", "class": "X", "presentedBy": "A"}}]}
            """, app: #""focusedResponder": "Nada""#))
        let base = "/scene/windows/0/subviews/0/subviews/0"
        #expect(has(list, base + "/overrides/hitTest/redirect", "not a view id"))
        #expect(has(list, base + "/overrides/nextResponder", "not an id"))
        #expect(has(list, base + "/gestureRecognizers/0/requireToFail/0", "not a gesture recognizer id"))
        #expect(has(list, base + "/gestureRecognizers/0/delegate/id", "give \"class\""))
        #expect(has(list, base + "/gestureRecognizers/0/targets/0/target", "not an id"))
        #expect(has(list, base + "/subviews/0/viewController/presentedBy", "not a view controller id"))
        #expect(has(list, "/scene/app/focusedResponder", "not an id"))
    }

    @Test func classSpecificProperties() {
        let list = issues(Scenes.scene("""
            {"id": "A", "class": "UIView", "frame": [0, 0, 10, 10], "enabled": false, "level": 1, "scrollView": {"contentSize": [1, 1]},
             "gestureRecognizers": [{"id": "g", "class": "UITapGestureRecognizer", "direction": ["left"], "targets": []}]},
            {"id": "Cust", "class": "MyRecognizerHost", "frame": [0, 0, 10, 10], "gestureRecognizers": [{"id": "h", "class": "MyGR", "targets": []}]}
            """))
        let a = "/scene/windows/0/subviews/0/subviews/0"
        #expect(has(list, a + "/enabled", "only UIControl"))
        #expect(has(list, a + "/level", "only windows"))
        #expect(has(list, a + "/scrollView", "only UIScrollView"))
        #expect(has(list, a + "/gestureRecognizers/0/direction", "has no direction"))
        #expect(has(list, "/scene/windows/0/subviews/0/subviews/1/gestureRecognizers/0/class", "give \"base\""))
    }

    @Test func geometryRules() {
        let list = issues(Scenes.scene("""
            {"id": "A", "class": "UIView"},
            {"id": "B", "class": "UIView", "center": [5, 5]},
            {"id": "C", "class": "UIView", "frame": [0, 0, 10, 10], "bounds": [0, 0, 20, 10]},
            {"id": "D", "class": "UIView", "frame": [0, 0, 10, 10], "transform": [0.7071067811865476, 0.7071067811865476, -0.7071067811865476, 0.7071067811865476, 0, 0]},
            {"id": "E", "class": "UIView", "frame": [0, 0, 10, 10], "transform": [1, 0, 0], "center": [1, 1]}
            """))
        let base = "/scene/windows/0/subviews/0/subviews/"
        #expect(has(list, base + "0", "needs \"frame\""))
        #expect(has(list, base + "1/bounds", "needs \"bounds\""))
        #expect(has(list, base + "2/bounds", "differs from frame size"))
        #expect(has(list, base + "3/transform", "give \"bounds\""))
        #expect(has(list, base + "4/transform", "6 numbers"))
        #expect(has(list, base + "4/center", "not both"))
    }

    @Test func windowsMustBeWindows() {
        let scene = """
            {"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIView", "frame": [0, 0, 10, 10], "subviews": [
              {"id": "X", "class": "UIWindow", "frame": [0, 0, 1, 1]}]}]}
            """
        let list = issues(scene)
        #expect(has(list, "/scene/windows/0/class", "must be UIWindow"))
        #expect(has(list, "/scene/windows/0/subviews/0/class", "only appear in /windows"))
    }

    @Test func formatAndRequiredKeys() {
        let list = issues(#"{"format": "taptrace/scene@2", "windows": [{"class": "UIWindow", "frame": [0, 0, 1, 1]}]}"#,
                          #"{"events": []}"#)
        #expect(has(list, "/scene/format", "must be \"taptrace/scene@1\""))
        #expect(has(list, "/scene/windows/0", "required key \"id\""))
        // In a request the endpoint implies the touches document: its format may be left out
        // (issue 32); a wrong one is still an issue.
        #expect(!list.contains { $0.pointer == "/touches/format" })
        let wrong = issues(#"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 1, 1]}]}"#,
                           #"{"format": "taptrace/touches@9", "gestures": [{"tap": [0, 0]}]}"#)
        #expect(has(wrong, "/touches/format", "must be \"taptrace/touches@1\""))
    }

    @Test func touchSequenceRules() {
        let touches = """
            {"format": "taptrace/touches@1", "events": [
              {"t": 0, "touches": [{"id": "T1", "phase": "began", "at": [1, 1]}]},
              {"t": 0.2, "touches": [{"id": "T1", "phase": "began", "at": [1, 1]}, {"id": "T2", "phase": "moved", "at": [1, 1]}]},
              {"t": 0.1, "touches": [{"id": "T3", "phase": "began", "at": [1, 1]}, {"id": "T3", "phase": "ended", "at": [1, 1]}]},
              {"t": 0.3, "touches": [{"id": "T4", "phase": "began"}, {"id": "T5", "phase": "stationary", "at": [1, 1]}]}]}
            """
        let list = issues(Scenes.scene(), touches)
        #expect(has(list, "/touches/events/1/touches/0", "begins twice"))
        #expect(has(list, "/touches/events/1/touches/1", "before it began"))
        #expect(has(list, "/touches/events/2/t", "times must increase strictly"))
        #expect(has(list, "/touches/events/2/touches/1", "appears twice in one event"))
        #expect(has(list, "/touches/events/0/touches/0", "never ends"))
        #expect(has(list, "/touches/events/3/touches/0", "\"at\""))
        #expect(has(list, "/touches/events/3/touches/1/phase", "must be began, moved, ended or cancelled"))
    }

    @Test func knobValues() {
        let list = issues(Scenes.scene(knobs: #"{"cancelTiming": "sometimes"}"#), Scenes.tap(1, 1),
                          knobs: #"{"hitTestPasses": 3, "panHysterisis": 5, "drainLimit": -1}"#)
        #expect(has(list, "/scene/knobs/cancelTiming", "must be one of"))
        #expect(has(list, "/knobs/hitTestPasses", "must be 1 or 2"))
        #expect(has(list, "/knobs/panHysterisis", "did you mean \"panHysteresis\"?"))
        #expect(has(list, "/knobs/drainLimit", "≥ 0"))
    }

    @Test func malformedJSONHasLineAndColumn() {
        do {
            _ = try TapTrace.dispatch(json: Array("{\n  \"scene\": {\"format\": \"x\",,}\n}".utf8))
            Issue.record("expected a syntax error")
        } catch {
            guard case .syntax(let e) = error else { Issue.record("expected syntax, got \(error)"); return }
            #expect(e.line == 2 && e.column == 27)
            let problem = Problem(error)
            #expect(problem.kind == .malformedJSON && problem.line == 2)  // 400 over HTTP and in the CLI
        }
    }

    @Test func problemDocumentShape() throws {
        let failure = ValidationFailure(issues: [ValidationIssue("/scene/windows/0/frame", "must be a rect")])
        let json = String(decoding: Problem(.invalid(failure)).json(status: 422), as: UTF8.self)
        #expect(json == #"{"type":"https://taptrace.dev/problems/validation","title":"Invalid document","status":422,"detail":"1 problem found; each names the JSON pointer of the value at fault.","errors":[{"pointer":"/scene/windows/0/frame","detail":"must be a rect"}]}"#)
    }

    /// A million broken views give a capped list, counted, not a million lines.
    @Test func issuesAreCapped() {
        var views: [String] = []
        for i in 0..<1500 { views.append("{\"id\": \"v\(i)\", \"class\": \"UIView\", \"frame\": [0, 0, -1, 1]}") }
        do {
            _ = try TapTrace.dispatch(json: Array(Scenes.request(Scenes.scene(views.joined(separator: ",")), Scenes.tap(1, 1)).utf8))
        } catch {
            guard case .invalid(let f) = error else { Issue.record("\(error)"); return }
            #expect(f.issues.count == IssueList.cap)
            #expect(f.omitted == 500)
        }
    }
}
