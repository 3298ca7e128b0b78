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

    func run() throws {
        try Output.guarded {
            let bytes = try InputFile.read(request)
            let result: DispatchResult
            do throws(InputError) { result = try TapTrace.dispatch(json: bytes) } catch { throw CLIFailure(error) }
            if text {
                Output.write(TextRenderer.render(result, names: names, rules: rules))
            } else {
                Output.write(ResultEncoder.encode(result, indent: pretty ? 2 : 0))
            }
        }
    }
}

extension TextRenderer.Names: ExpressibleByArgument {}
