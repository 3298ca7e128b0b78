import ArgumentParser
import Foundation
import TapTraceCore
import TapTraceFormats

/// `taptrace audit SCENE [--text] [--junit FILE] [--knob name=value]`: can every interactive
/// element be tapped (`TappabilityAudit`)? Exit code 1 when one is unreachable, so a CI can
/// gate on it; 0 otherwise (partly reachable elements and small targets are warnings); 2 for
/// bad input.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Can every interactive element be tapped? Exit code 1 when one is unreachable.",
        discussion: """
            Every control, view with gesture recognizers, touch handling or targets, and \\
            accessibility element with an identifier is hit-tested at its centre (and, when the \\
            centre misses, on a 3 × 3 grid inside it): hittable, partly reachable or unreachable, \\
            with the reasons. Targets smaller than 44 × 44 pt are flagged (a warning). Exit \\
            code 1 when an element is unreachable, 0 otherwise, 2 for bad input.
            """
    )

    @Argument(help: "The scene document, or - for standard input.")
    var scene: String

    @Flag(help: "Print the audit as text instead of JSON.")
    var text = false

    @Option(help: ArgumentHelp("Also write JUnit XML to this file: one testcase per element, a failure when it is unreachable.",
                               valueName: "file"))
    var junit: String?

    @Option(help: "Knob overrides as name=value (e.g. alphaThreshold=0.05).")
    var knob: [String] = []

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        var unreachable = 0
        try Output.guarded {
            let limits = try limitOptions.resolved()
            let index = try loadScene(scene, limits: limits)
            let knobs = try KnobArguments.parse(knob)
            let audit = TappabilityAudit.run(index, knobs: knobs)
            if let junit {
                let suite = index.scene.name ?? (scene == "-" ? "taptrace audit" : scene)
                guard FileManager.default.createFile(atPath: junit, contents: Data(audit.junit(suite: suite).utf8)) else {
                    throw CLIFailure(Problem(kind: .unreadableInput, title: "Cannot write output",
                                             detail: "Cannot write the JUnit report to \(junit)."))
                }
            }
            if text {
                Output.write(try CommandLimits.output(audit.text(), limits))
            } else {
                Output.write(try CommandLimits.output(audit.json(indent: pretty ? 2 : 0), limits))
            }
            unreachable = audit.unreachable
        }
        if unreachable > 0 { throw ExitCode(1) }
    }
}
