import ArgumentParser
import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceImport

/// `taptrace import auto|recursive-description|appium|xcuitest FILE|-`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a real view dump into a scene document.",
        discussion: """
            A recursiveDescription dump may be followed, in the same file, by what the same \
            debugger session printed: _printHierarchy (view controllers), the descriptions of \
            gesture recognizers and allTargets answers; they are joined to the views by address.
            """,
        subcommands: [AutoImport.self, RecursiveDescriptionImport.self, AppiumImport.self, XCUITestImport.self]
    )
}

/// Options shared by both formats.
struct ImportOptions: ParsableArguments {
    @Argument(help: "The dump, or - for standard input.")
    var file: String

    @Flag(help: "Print {\"scene\": …, \"warnings\": […]} instead of the scene alone.")
    var withWarnings = false

    @Flag(help: "Indent the JSON output.")
    var pretty = false

    @Option(help: "The scene's name (default: the importer's, e.g. \"recursiveDescription: UIWindow\").")
    var name: String?

    @Option(help: ArgumentHelp("How views are named: stable (accessibility identifier, else class and label, else class and position; the same after a relaunch) or address (Class-0xADDRESS, as the dump printed).", valueName: "stable|address"))
    var ids: TapTraceImport.ImportOptions.Identity = .stable

    @OptionGroup var limitOptions: LimitOptions

    func validate() throws {
        if let name, name.allSatisfy(\.isWhitespace) { throw ValidationError("--name must not be empty.") }
    }

    /// `format` nil: recognised from the dump (`import auto`).
    func run(_ format: ImportFormat?) throws {
        try Output.guarded {
            let limits = try limitOptions.resolved()
            let bytes = try InputFile.read(file)
            let result: ImportResult
            do throws(ImportError) {
                var chosen: ImportFormat
                if let format { chosen = format } else { chosen = try ImportFormat.detect(bytes) }
                result = try chosen.parse(bytes, TapTraceImport.ImportOptions(ids: ids, name: name))
            } catch {
                throw CLIFailure(error.problem)
            }
            try CommandLimits.checkViews(result.scene, limits, subject: "The imported scene")
            if format == nil, let used = result.format {
                FileHandle.standardError.write(Data("note: read as \(used.rawValue) (\(used.title))\n".utf8))
            }
            for warning in result.warnings {
                FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
            }
            let indent = pretty ? 2 : 0
            Output.write(try CommandLimits.output(withWarnings ? result.json(indent: indent) : result.sceneJSON(indent: indent), limits))
        }
    }
}

struct AutoImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auto",
        abstract: "Import any dump, its format recognised from its first lines (as POST /v1/import)."
    )
    @OptionGroup var options: ImportOptions
    func run() throws { try options.run(nil) }
}

struct RecursiveDescriptionImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recursive-description",
        abstract: "Import the text of -[UIView recursiveDescription] (lldb po, Cycript)."
    )
    @OptionGroup var options: ImportOptions
    func run() throws { try options.run(.recursiveDescription) }
}

struct AppiumImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appium",
        abstract: "Import an Appium XCUITest (WebDriverAgent) page source: the accessibility tree."
    )
    @OptionGroup var options: ImportOptions
    func run() throws { try options.run(.appium) }
}

struct XCUITestImport: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcuitest",
        abstract: "Import XCUIElement debugDescription text (print(app.debugDescription), Appium mobile: source format: description)."
    )
    @OptionGroup var options: ImportOptions
    func run() throws { try options.run(.xcuitest) }
}

extension TapTraceImport.ImportOptions.Identity: ExpressibleByArgument {}
