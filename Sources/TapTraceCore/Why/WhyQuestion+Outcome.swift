/// Whether a run gives the outcome a question expects, and that outcome in words (issue 31,
/// item 3: "what would change it" keeps only the edits whose run meets the expectation).
///
/// - A recognizer *fired* when its states include `.began` or `.ended` (it recognized, GS1);
///   *not-fired* is the opposite.
/// - An action *fired* when the run's `actions` has it with a receiver: sent by a control or a
///   recognizer, to its target or to the responder the nil-target walk found. An action the
///   walk could not deliver (`via: unhandled`, A2) did not fire: no method ran.
/// - A view is *hit* when it is the hit-test view of the run's first touch (H1, R1).
/// - A view *fired* when it received `touchesBegan:withEvent:`, as the hit-test view of a touch
///   or forwarded to it up the responder chain (T5). The run's summary does not say so, so this
///   is read from the trace: a question about a view is verified with traced runs.
extension WhyQuestion {
    /// Whether `result` (a run against `index`) gives `expect` for this question's subject.
    /// Nil when the subject has no expectation (the first responder).
    func isMet(by result: DispatchResult, expect: Expectation, index: SceneIndex) -> Bool? {
        switch subject {
        case .recognizer(let id):
            let fired = WhatIfOutcome.recognized(id, in: result)
            return expect == .notFired ? !fired : fired
        case .action(let action):
            let fired = WhatIfOutcome.delivered(action, in: result) != nil
            return expect == .notFired ? !fired : fired
        case .view(let id):
            switch expect {
            case .hit: return result.touches.first?.hitTestView == id
            case .fired, .notFired:
                let fired = WhatIfOutcome.receivedTouchesBegan(id, in: result, index: index)
                return expect == .notFired ? !fired : fired
            }
        case .firstResponder, .press, .keyCommand, .shake, .remoteControl:
            return nil
        }
    }

    /// Whether a question about a view's touches needs a traced run to be answered.
    var needsTracedRun: Bool {
        if case .view = subject, expect != .hit { return true }
        return false
    }
}

/// Reading a run's outcome, and saying it.
enum WhatIfOutcome {
    static func recognized(_ id: String, in result: DispatchResult) -> Bool {
        guard let r = result.recognizers.first(where: { $0.id == id }) else { return false }
        return r.states.contains(.began) || r.states.contains(.ended)
    }

    /// The first delivery of `action` (a receiver ran it), if any.
    static func delivered(_ action: String, in result: DispatchResult) -> ActionRecord? {
        result.actions.first { $0.action == action && $0.via != .unhandled }
    }

    /// Whether the trace has a `touchesBegan:withEvent:` call received by view `id`. Needs a
    /// traced run; an untraced one says no.
    static func receivedTouchesBegan(_ id: String, in result: DispatchResult, index: SceneIndex) -> Bool {
        guard let v = index.view(withId: id) else { return false }
        let target = TraceObject(view: v)
        for r in result.recorder.records where r.kind == .call && r.receiver == target {
            if case .uikit(.touchesBegan) = r.selector { return true }
        }
        return false
    }

    /// When a recognizer recognized: the time of its first action with `.began` or `.ended`
    /// (a recognizer without targets sends none, and the sentence goes without a time).
    static func recognitionTime(_ id: String, in result: DispatchResult) -> Double? {
        result.actions.first { $0.sender == id && $0.via == .recognizer && ($0.state == .began || $0.state == .ended) }?.t
    }

    /// What the run with an edit does, in one sentence: the question's subject first, then
    /// what else changed against the baseline (the hit-test view, recognizers that now
    /// recognize or no longer do, actions sent or no longer sent). E.g. "cardTap recognizes at
    /// t=0.08; buyTapped: is no longer sent".
    static func sentence(_ question: WhyQuestion, result: DispatchResult, index: SceneIndex,
                         baseline: DispatchResult) -> String {
        var parts: [String] = []
        var subjectRecognizer: String?
        var subjectAction: String?
        var subjectIsHit = false
        switch question.subject {
        case .recognizer(let id):
            subjectRecognizer = id
            if recognized(id, in: result) {
                parts.append("\(id) recognizes" + (recognitionTime(id, in: result).map { " at t=\(NumberText.format($0))" } ?? ""))
            } else {
                let last = result.recognizers.first { $0.id == id }?.states.last
                parts.append("\(id) does not recognize" + (last.map { " (it ends \($0.rawValue))" } ?? " (it receives no touch)"))
            }
        case .action(let action):
            subjectAction = action
            if let a = delivered(action, in: result) {
                parts.append("\(action) is sent" + (a.target.map { " to \($0)" } ?? "") + " at t=\(NumberText.format(a.t))")
            } else {
                parts.append("\(action) is not sent")
            }
        case .view(let id):
            if question.expect == .hit {
                subjectIsHit = true
                let hit = result.touches.first?.hitTestView
                parts.append(hit == id ? "\(id) is the hit-test view" : "the hit-test view is \(hit ?? "none")")
            } else if receivedTouchesBegan(id, in: result, index: index) {
                parts.append("\(id) receives touchesBegan:withEvent:")
            } else {
                parts.append("\(id) receives no touchesBegan:withEvent:")
            }
        case .firstResponder, .press, .keyCommand, .shake, .remoteControl:
            break
        }
        // What else changed.
        let before = baseline.touches.first?.hitTestView, after = result.touches.first?.hitTestView
        if !subjectIsHit, before != after {
            parts.append("the hit-test view is \(after ?? "none") (was \(before ?? "none"))")
        }
        var recognizedBefore: [String] = []
        for r in baseline.recognizers where r.id != subjectRecognizer && recognized(r.id, in: baseline) { recognizedBefore.append(r.id) }
        var recognizedAfter: [String] = []
        for r in result.recognizers where r.id != subjectRecognizer && recognized(r.id, in: result) { recognizedAfter.append(r.id) }
        for r in recognizedAfter where !recognizedBefore.contains(r) { parts.append("\(r) recognizes") }
        for r in recognizedBefore where !recognizedAfter.contains(r) { parts.append("\(r) no longer recognizes") }
        let sentBefore = sentActions(baseline, excludingSender: subjectRecognizer)
        let sentAfter = sentActions(result, excludingSender: subjectRecognizer)
        for a in sentBefore where a != subjectAction && !sentAfter.contains(a) { parts.append("\(a) is no longer sent") }
        for a in sentAfter where a != subjectAction && !sentBefore.contains(a) { parts.append("\(a) is sent") }
        return parts.joined(separator: "; ")
    }

    /// Delivered action selectors in order, once each, leaving out those a recognizer sent
    /// when it is the subject (its own actions go with "recognizes").
    private static func sentActions(_ result: DispatchResult, excludingSender sender: String?) -> [String] {
        var out: [String] = []
        for a in result.actions where a.via != .unhandled && a.sender != sender && !out.contains(a.action) {
            out.append(a.action)
        }
        return out
    }
}
