import ArgumentParser
import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceRuns
import TapTraceService

/// `taptrace check FILE|DIR… [--junit out.xml] [--json]`: runs test files (`*.case.json`: a
/// dispatch request with `expect`) and reports what was expected and what happened.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run test files (*.case.json) and report each expectation that failed.",
        discussion: """
            A test file is a dispatch request ({"scene": …, "touches": …, "knobs": …}) with \\
            "name", optional "rules" and "expect" (the conformance case format). A directory \\
            means every *.case.json in it and below, in sorted order. Exit code 0 when every \\
            case passed, 1 when an expectation failed, 2 when a file cannot be read or is not \\
            a valid case (its problem document on standard error; no case is run then).
            """
    )

    @Argument(help: "Test files, directories to search for *.case.json, or - for standard input.")
    var paths: [String]

    @Option(help: ArgumentHelp("Also write the outcomes as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Flag(help: "Print the outcomes as JSON (as POST /v1/check answers) instead of text.")
    var json = false

    @OptionGroup var limitOptions: LimitOptions

    func run() throws {
        var report = CheckReport([])
        try Output.guarded {
            // Each file is a request of its own: its records, views and trace are held to the
            // limits (as one `POST /v1/check` of one case).
            let limits = try limitOptions.resolved()
            var cases: [(file: String, document: CaseDocument)] = []
            for file in try CaseFiles.expand(paths) {
                let bytes = try InputFile.read(file)
                do throws(InputError) {
                    cases.append((file, try CaseDocument.decode(bytes, limits: limits)))
                } catch {
                    var problem = Problem(error)
                    problem.detail = "\(file): " + problem.detail
                    throw CLIFailure(problem)
                }
            }
            var outcomes: [CaseOutcome] = []
            for (file, document) in cases {
                let budget = WorkBudget(limits: limits)
                outcomes.append(CaseChecker.run(document, name: document.name ?? CaseFiles.stem(file), file: file, budget: budget))
                if let stop = budget.stop {
                    var problem = Problem(stop)
                    problem.detail = "\(file): " + problem.detail
                    throw CLIFailure(problem)
                }
            }
            report = CheckReport(outcomes)
            if let junit {
                guard FileManager.default.createFile(atPath: junit, contents: Data(report.junit().utf8)) else {
                    throw CLIFailure(Problem(kind: .unreadableInput, title: "Cannot write output",
                                             detail: "Cannot write the JUnit XML to \(junit)."))
                }
            }
        }
        if json { Output.write(report.json()) } else { Output.write(report.text) }
        if report.failed > 0 { throw ExitCode(1) }
    }
}

/// The files a `check` runs: files as given, directories searched for `*.case.json`.
enum CaseFiles {
    static let suffix = ".case.json"

    static func expand(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            if path == "-" { files.append(path); continue }   // standard input
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIFailure(Problem(kind: .unreadableInput, title: "Cannot read input",
                                         detail: "Cannot read \(path): no such file or directory."))
            }
            guard isDirectory.boolValue else { files.append(path); continue }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(suffix) }
                .sorted()
                .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
                .filter { f in var d: ObjCBool = false; return FileManager.default.fileExists(atPath: f, isDirectory: &d) && !d.boolValue }
            guard !found.isEmpty else {
                throw CLIFailure(Problem(kind: .unreadableInput, title: "Cannot read input",
                                         detail: "\(path) holds no \(suffix) file."))
            }
            files += found
        }
        return files
    }

    /// A file's name without its folder and `.case.json`: the case's name when it has none.
    static func stem(_ file: String) -> String {
        var name = (file as NSString).lastPathComponent
        if name.hasSuffix(suffix) { name.removeLast(suffix.count) } else if name.hasSuffix(".json") { name.removeLast(5) }
        return name
    }
}
