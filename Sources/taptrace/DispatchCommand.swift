import ArgumentParser
import TapTraceCore
import TapTraceFormats

struct DispatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dispatch",
        abstract: "Run a touch sequence against a scene and print the result document.",
        discussion: "REQUEST is {\"scene\": …, \"touches\": …, \"knobs\": …} (contract §4); '-' reads standard input."
    )

    @Argument(help: "The request document, or - for standard input.")
    var request: String

    @Flag(help: "Print the plain-text trace instead of JSON.")
    var text = false

    @Flag(help: "With --text: number each trace entry (#12, as `why` cites them) and name the rule it shows ([GS7]).")
    var rules = false

    @Option(help: "Selector names in the text rendering: objc, swift or both.")
    var names: TextRenderer.Names = .objc

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        try Output.guarded {
            let limits = try limitOptions.resolved()
            let bytes = try InputFile.read(request)
            // As `TapTrace.dispatch(json:)`, with the limits: records and views while decoding,
            // the trace while running, the output before it is printed.
            let decoded: DecodedRequest
            do throws(InputError) { decoded = try InputDecoder.request(bytes, limits: limits) } catch { throw CLIFailure(error) }
            let budget = WorkBudget(limits: limits)
            let result: DispatchResult
            do throws(ValidationFailure) {
                result = try TapTrace.dispatch(SceneIndex(validated: decoded.scene), touches: decoded.touches,
                                               records: decoded.records, knobs: decoded.knobs, budget: budget)
            } catch { throw CLIFailure(Problem(error)) }
            try CommandLimits.finish(budget)
            if text {
                Output.write(try CommandLimits.output(TextRenderer.render(result, names: names, rules: rules), limits))
            } else {
                Output.write(try CommandLimits.output(ResultEncoder.encode(result, indent: pretty ? 2 : 0), limits))
            }
        }
    }
}

extension TextRenderer.Names: ExpressibleByArgument {}
