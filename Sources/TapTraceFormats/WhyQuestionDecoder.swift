import TapTraceCore

/// A `WhyQuestion` read from a request body: exactly one of `"recognizer": "id"`,
/// `"action": "sel:"`, `"view": "id"`, `"firstResponder": true`, `"press": "P1"`,
/// `"keyCommand": "VC.keyCommands[0]"`, `"shake": true` or `"remoteControl": true`, and
/// optionally `"expect": "fired" | "not-fired" | "hit"` or (for a press, a shake or a
/// remote-control event) `"responder": "id"`. The members sit at the top of the body, beside
/// the dispatch request's for `POST /v1/why`.
struct WhyQuestionReader {
    let reader: DocumentReader
    private var subjects: [(name: String, subject: WhyQuestion.Subject)] = []
    private var expect: WhyQuestion.Expectation?
    private var responder: String?

    init(_ reader: DocumentReader) { self.reader = reader }

    /// Reads the member `name` (one of the question's) at `node`.
    mutating func read(_ name: String, _ node: Int) {
        let at = { "/" + name }
        switch name {
        case "recognizer": if let id = reader.string(node, at: at) { subjects.append((name, .recognizer(id))) }
        case "action": if let action = reader.string(node, at: at) { subjects.append((name, .action(action))) }
        case "view": if let id = reader.string(node, at: at) { subjects.append((name, .view(id))) }
        case "firstResponder", "shake", "remoteControl":
            if let flag = reader.bool(node, at: at) {
                let subject: WhyQuestion.Subject = name == "shake" ? .shake : name == "remoteControl" ? .remoteControl : .firstResponder
                if flag { subjects.append((name, subject)) } else {
                    reader.report(at, "\(name) is asked with true; leave it out to ask about something else")
                }
            }
        case "press": if let id = reader.string(node, at: at) { subjects.append((name, .press(id))) }
        case "keyCommand": if let id = reader.string(node, at: at) { subjects.append((name, .keyCommand(id))) }
        case "responder": responder = reader.string(node, at: at)
        default:
            guard let text = reader.string(node, at: at) else { return }
            if let e = WhyQuestion.Expectation(rawValue: text) { expect = e } else {
                reader.report(at, "must be one of " + WhyQuestion.Expectation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
        }
    }

    /// The question, or nil with an issue when the body asks none or several.
    func question() -> WhyQuestion? {
        guard subjects.count == 1 else {
            let names = ["recognizer", "action", "view", "firstResponder", "press", "keyCommand", "shake", "remoteControl"]
            if subjects.isEmpty {
                reader.report({ "" }, "ask one question: one of " + names.map { "\"\($0)\"" }.joined(separator: ", "))
            } else {
                reader.report({ "/" + subjects[1].name }, "ask one question at a time; this body also asks about \"\(subjects[0].name)\"")
            }
            return nil
        }
        return WhyQuestion(subjects[0].subject, expect: expect, responder: responder)
    }
}

extension InputDecoder {
    /// The body of `POST /v1/runs/{id}/why`: the question alone.
    public static func whyQuestion(_ bytes: [UInt8]) throws(InputError) -> WhyQuestion {
        let reader = DocumentReader(tape: try parse(bytes))
        var question = WhyQuestionReader(reader)
        let isObject = reader.object(0, at: { "" }) { (key: WhyQuestionKey, v) in question.read(key.rawValue, v) }
        let asked = isObject ? question.question() : nil
        guard reader.issues.isEmpty, let asked else { throw .invalid(ValidationFailure(reader.issues)) }
        return asked
    }

    /// The body of `POST /v1/why` and the file of `taptrace why`: a dispatch request (`scene`,
    /// `touches`, `knobs`) with the question beside it; `question` nil means the question is
    /// given elsewhere (the CLI's options) and none may be in the body.
    /// `limits` bounds the scene's views and the touch records.
    public static func whyRequest(_ bytes: [UInt8], questionInBody: Bool = true,
                                  limits: Limits = .unlimited) throws(InputError) -> (request: DecodedRequest, question: WhyQuestion?) {
        let reader = DocumentReader(tape: try parse(bytes), limits: limits)
        var parts = RequestParts(reader)
        var question = WhyQuestionReader(reader)
        let isObject = reader.object(0, at: { "" }) { (key: WhyRequestKey, v) in
            if let part = RequestKey(rawValue: key.rawValue) {
                parts.read(part, v)
            } else if questionInBody {
                question.read(key.rawValue, v)
            } else {
                reader.report({ "/" + key.rawValue }, "the question is given on the command line (--recognizer, --action, --view, --first-responder, --press, --key-command, --shake, --remote-control, --responder, --expect), not in the request")
            }
        }
        let request = parts.finish(isObject: isObject)
        let asked = isObject && questionInBody ? question.question() : nil
        guard reader.issues.isEmpty else { throw .invalid(ValidationFailure(reader.issues)) }
        return (request, asked)
    }
}
