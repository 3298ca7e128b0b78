import ArgumentParser
import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceImport

/// `taptrace import recursive-description FILE|-` and `taptrace import appium FILE|-`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn a real view dump into a scene document.",
        subcommands: [RecursiveDescriptionImport.self, AppiumImport.self]
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

    func run(_ format: ImportFormat) throws {
        try Output.guarded {
            let bytes = try InputFile.read(file)
            let result: ImportResult
            do throws(ImportError) {
                result = try format.parse(bytes)
            } catch {
                throw CLIFailure(error.problem)
            }
            for warning in result.warnings {
                FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
            }
            let indent = pretty ? 2 : 0
            Output.write(withWarnings ? result.json(indent: indent) : result.sceneJSON(indent: indent))
        }
    }
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
