/// A question about a run (issue 31), in the words of `taptrace why` and `POST /v1/why`:
/// why a recognizer ended where it did, why an action was or was not sent, why a view received
/// (or did not receive) each phase of its touches, why the first responder and the chain are
/// what they are. With an expectation it also asks what single change to the scene would give
/// that outcome.
public struct WhyQuestion: Sendable, Hashable {
    public enum Subject: Sendable, Hashable {
        /// A recognizer id.
        case recognizer(String)
        /// An action selector (`buyTapped:`).
        case action(String)
        /// A view id.
        case view(String)
        case firstResponder
        /// A press id (contract §2.1): where the key or button went, who took it.
        case press(String)
        /// A key command's id (`VC.keyCommands[0]`): whether a key-down matched it and ran it.
        case keyCommand(String)
        /// The run's shakes.
        case shake
        /// The run's remote-control events.
        case remoteControl
    }

    /// The outcome the user wanted.
    public enum Expectation: String, Sendable, Hashable, CaseIterable {
        /// The recognizer recognizes (`.began` or `.ended`), or the action is sent.
        case fired
        /// The recognizer does not recognize, or the action is not sent.
        case notFired = "not-fired"
        /// The view is the hit-test view of the run's first touch.
        case hit
    }

    public var subject: Subject
    public var expect: Expectation?
    /// For a press, a shake or a remote-control event: did it reach this responder, and why
    /// (not)?
    public var responder: String?

    public init(_ subject: Subject, expect: Expectation? = nil, responder: String? = nil) {
        self.subject = subject; self.expect = expect; self.responder = responder
    }

    /// The question as a sentence, for the answer's `question`.
    public var text: String {
        var s: String
        switch subject {
        case .recognizer(let id): s = "Why did recognizer \(id) end as it did?"
        case .action(let action): s = "Why was \(action) sent or not sent?"
        case .view(let id): s = "Why did view \(id) receive what it received?"
        case .firstResponder: s = "Why are the first responder and the responder chain what they are?"
        case .press(let id): s = "Where did press \(id) go, and who took it?"
        case .keyCommand(let id): s = "Why did key command \(id) run or not run?"
        case .shake: s = "Where did the shakes go, and who took them?"
        case .remoteControl: s = "Where did the remote-control events go, and who took them?"
        }
        if let responder { s += " Did it reach \(responder)?" }
        if let expect {
            switch (subject, expect) {
            case (.recognizer(let id), .fired): s += " What would make \(id) recognize?"
            case (.recognizer(let id), .notFired): s += " What would keep \(id) from recognizing?"
            case (.action(let a), .fired): s += " What would make \(a) be sent?"
            case (.action(let a), .notFired): s += " What would keep \(a) from being sent?"
            case (.view(let id), .hit): s += " What would make \(id) the hit-test view?"
            case (.view(let id), .fired): s += " What would make \(id) receive the touch?"
            case (.view(let id), .notFired): s += " What would keep the touch from \(id)?"
            case (.firstResponder, _), (.recognizer, .hit), (.action, .hit), (.press, _), (.keyCommand, _), (.shake, _),
                 (.remoteControl, _): break
            }
        }
        return s
    }
}

/// The answer: a one-line `answer`, the reasons (each with its rule id and the indices of the
/// trace entries that show it), and, when an outcome was expected, up to five single changes to
/// the scene that give it, each verified by dispatching again with the change.
public struct WhyAnswer: Sendable, Hashable {
    public struct Reason: Sendable, Hashable {
        /// Rule id of dispatch-rules.md (GS7, K6, R3, …).
        public var rule: String
        public var text: String
        /// Indices into the run's `trace` of the entries that show it.
        public var trace: [Int]
        public init(rule: String, text: String, trace: [Int] = []) {
            self.rule = rule; self.text = text; self.trace = trace
        }
    }

    public struct Change: Sendable, Hashable {
        /// The edit in words, naming the object and property (`set cardTap.cancelsTouchesInView = NO`).
        public var edit: String
        /// The rule that makes the edit work.
        public var rule: String
        /// Whether a dispatch with the edit gave the expected outcome (always true in answers:
        /// unverified candidates are dropped).
        public var verified: Bool
        /// What the run does with the edit, in a sentence.
        public var outcome: String
        public init(edit: String, rule: String, verified: Bool, outcome: String) {
            self.edit = edit; self.rule = rule; self.verified = verified; self.outcome = outcome
        }
    }

    public var question: String
    public var answer: String
    public var reasons: [Reason]
    public var changes: [Change]

    public init(question: String, answer: String, reasons: [Reason], changes: [Change] = []) {
        self.question = question; self.answer = answer; self.reasons = reasons; self.changes = changes
    }

    /// Plain text: the answer, the numbered reasons with their rules and trace entries, the
    /// changes.
    public func text() -> String {
        var out = question + "\n" + answer + "\n"
        for (i, r) in reasons.enumerated() {
            out += "\(i + 1). [\(r.rule)] \(r.text)"
            if !r.trace.isEmpty { out += " (trace " + r.trace.map { "#\($0)" }.joined(separator: ", ") + ")" }
            out += "\n"
        }
        if !changes.isEmpty {
            out += "What would change it:\n"
            for c in changes { out += "- \(c.edit) [\(c.rule)]: \(c.outcome)\n" }
        }
        return out
    }
}
