import ArgumentParser
import TapTraceCore
import TapTraceFormats

/// `taptrace why REQUEST.json --recognizer ID | --action SEL | --view ID | --first-responder |
/// --press ID | --key-command ID | --shake | --remote-control [--responder ID]
/// [--expect fired|not-fired|hit] [--text]`: the reasons for what a run did, with rule ids and
/// trace entries, and with `--expect` the single changes that would give that outcome.
struct WhyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "why",
        abstract: "Why did a recognizer, an action, a view, the first responder, a press, a key command, a shake or a remote-control event end up as they did in a run?",
        discussion: """
            REQUEST is a dispatch request ({"scene": …, "touches": …, "knobs": …}, as for \\
            dispatch); '-' reads standard input. Ask one question. The reasons carry rule ids \\
            and the indices of the trace entries that show them (dispatch --text --rules numbers \\
            the entries). With --expect, up to five single changes to the scene that give that \\
            outcome, each verified by dispatching again with it.
            """
    )

    @Argument(help: "The request document, or - for standard input.")
    var request: String

    @Option(help: "Why did this recognizer end as it did?")
    var recognizer: String?

    @Option(help: ArgumentHelp("Why was this action sent, or not sent?", valueName: "selector"))
    var action: String?

    @Option(help: "Why did this view receive (or not receive) each phase of its touches?")
    var view: String?

    @Flag(help: "Why are the first responder and the responder chain what they are?")
    var firstResponder = false

    @Option(help: ArgumentHelp("Where did this press (its id) go, and who took it?", valueName: "id"))
    var press: String?

    @Option(help: ArgumentHelp("Why did this key command run or not run?", valueName: "id"))
    var keyCommand: String?

    @Flag(help: "Where did the run's shakes go, and who took them?")
    var shake = false

    @Flag(help: "Where did the run's remote-control events go, and who took them?")
    var remoteControl = false

    @Option(help: ArgumentHelp("With --press, --shake or --remote-control: did it reach this responder, and why (not)?",
                               valueName: "id"))
    var responder: String?

    @Option(help: ArgumentHelp("The outcome you expected: fired or not-fired (a recognizer, an action), hit (a view).",
                               valueName: "fired|not-fired|hit"))
    var expect: WhyQuestion.Expectation?

    @Flag(help: "Print the answer as text instead of JSON.")
    var text = false

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        let asked = [recognizer != nil, action != nil, view != nil, firstResponder, press != nil, keyCommand != nil, shake,
                     remoteControl].filter { $0 }.count
        guard asked == 1 else {
            throw ValidationError("Ask one question: one of --recognizer, --action, --view, --first-responder, --press, --key-command, --shake or --remote-control.")
        }
    }

    var question: WhyQuestion {
        let subject: WhyQuestion.Subject
        if let recognizer { subject = .recognizer(recognizer) }
        else if let action { subject = .action(action) }
        else if let view { subject = .view(view) }
        else if let press { subject = .press(press) }
        else if let keyCommand { subject = .keyCommand(keyCommand) }
        else if shake { subject = .shake }
        else if remoteControl { subject = .remoteControl }
        else { subject = .firstResponder }
        return WhyQuestion(subject, expect: expect, responder: responder)
    }

    func run() throws {
        try Output.guarded {
            let limits = try limitOptions.resolved()
            let bytes = try InputFile.read(request)
            let decoded: DecodedRequest
            do throws(InputError) { decoded = try InputDecoder.whyRequest(bytes, questionInBody: false, limits: limits).request } catch {
                throw CLIFailure(error)
            }
            let index = SceneIndex(validated: decoded.scene)
            let records: [TouchRecord]
            do throws(ValidationFailure) {
                records = try TapTrace.records(index, touches: decoded.touches, records: decoded.records, knobs: decoded.knobs)
            } catch { throw CLIFailure(Problem(error)) }
            let answer: WhyAnswer
            let budget = WorkBudget(limits: limits)
            do throws(ValidationIssue) {
                answer = try Why.answer(question, index: index, records: records,
                                        until: decoded.touches.until, knobs: decoded.knobs, budget: budget)
            } catch let issue {
                throw CLIFailure(Problem(kind: .validation, title: "Invalid question", detail: issue.message, errors: [issue]))
            }
            try CommandLimits.finish(budget)
            if text {
                Output.write(try CommandLimits.output(answer.text(), limits))
            } else {
                Output.write(try CommandLimits.output(answer.json(indent: pretty ? 2 : 0), limits))
            }
        }
    }
}

extension WhyQuestion.Expectation: ExpressibleByArgument {}
