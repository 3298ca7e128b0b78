import ArgumentParser
import TapTraceCore
import TapTraceFormats

/// Reads a scene file for `hit-test`, `explain` and `audit`, its views held to `limits`.
func loadScene(_ path: String, limits: Limits = .unlimited) throws -> SceneIndex {
    let bytes = try InputFile.read(path)
    do throws(InputError) {
        return SceneIndex(validated: try InputDecoder.scene(bytes, limits: limits))
    } catch {
        throw CLIFailure(error)
    }
}

/// A scene, a screen point and knob overrides: what `hit-test` and `explain` share.
struct ScenePointArguments: ParsableArguments {
    @Argument(help: "The scene document, or - for standard input.")
    var scene: String
    @Argument(help: "x in screen points.") var x: Double
    @Argument(help: "y in screen points.") var y: Double

    @Option(help: "Knob overrides as name=value (e.g. hitTestPasses=2).")
    var knob: [String] = []

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    @OptionGroup var limitOptions: LimitOptions

    var point: Point { Point(x, y) }
}

struct HitTestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit-test",
        abstract: "Hit-test one screen point: the window, the hit-test view, its path and the hit-test trace."
    )

    @OptionGroup var input: ScenePointArguments

    func run() throws {
        try Output.guarded {
            let limits = try input.limitOptions.resolved()
            let index = try loadScene(input.scene, limits: limits)
            let knobs = try KnobArguments.parse(input.knob)
            let report = HitTestReport.run(index, point: input.point, knobs: knobs)
            Output.write(try CommandLimits.output(report.json(indent: input.pretty ? 2 : 0), limits))
        }
    }
}

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Why is (or isn't) a view the hit-test view for a point? Reasons with rule ids."
    )

    @OptionGroup var input: ScenePointArguments

    @Option(help: "The id of the view (or recognizer) in question.")
    var target: String

    @Flag(help: "Print the reasons as text instead of JSON.")
    var text = false

    func run() throws {
        try Output.guarded {
            let limits = try input.limitOptions.resolved()
            let index = try loadScene(input.scene, limits: limits)
            let knobs = try KnobArguments.parse(input.knob)
            let explanation: Explanation
            do throws(ValidationIssue) {
                explanation = try Explainer.explain(index, point: input.point, target: target, knobs: knobs)
            } catch let issue {
                throw CLIFailure(Problem(kind: .validation, title: "Invalid request", detail: issue.message, errors: [issue]))
            }
            if text {
                Output.write(try CommandLimits.output(explanation.text(), limits))
            } else {
                Output.write(try CommandLimits.output(explanation.json(indent: input.pretty ? 2 : 0), limits))
            }
        }
    }
}

/// `--knob name=value`, values as JSON scalars or bare words.
enum KnobArguments {
    static func parse(_ items: [String]) throws -> KnobOverrides {
        var values: [(String, KnobValue)] = []
        var scratch = Knobs()
        var issues: [ValidationIssue] = []
        for item in items {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                issues.append(ValidationIssue("--knob \(item)", "expected name=value"))
                continue
            }
            let value: KnobValue
            if parts[1] == "true" || parts[1] == "false" { value = .bool(parts[1] == "true") }
            else if let n = Double(parts[1]) { value = .number(n) }
            else { value = .string(parts[1]) }
            if let problem = scratch.set(parts[0], value) { issues.append(ValidationIssue("--knob \(parts[0])", problem)) }
            else { values.append((parts[0], value)) }
        }
        guard issues.isEmpty else { throw CLIFailure(.invalid(ValidationFailure(issues: issues))) }
        return KnobOverrides(values)
    }
}
