import ArgumentParser
import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceService

struct TapTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taptrace",
        abstract: "UIKit hit-testing and touch dispatch, off-device: why didn't my tap do what I expected?",
        version: TapTraceService.version,
        subcommands: [ServeCommand.self, HealthCommand.self, DispatchCommand.self, HitTestCommand.self, ExplainCommand.self, WhyCommand.self,
                      ImportCommand.self, CheckCommand.self, AuditCommand.self]
    )
}

/// Input files: a path, or "-" for standard input.
enum InputFile {
    static func read(_ path: String) throws -> [UInt8] {
        if path == "-" {
            return Array(FileHandle.standardInput.readDataToEndOfFile())
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIFailure(Problem(kind: .unreadableInput, title: "Cannot read input",
                                     detail: "Cannot read \(path): no such file or not readable."))
        }
        return Array(data)
    }
}

/// Bad input: exit code 2 and the problem document on stderr (contract §4).
struct CLIFailure: Error {
    let problem: Problem
    init(_ problem: Problem) { self.problem = problem }
    init(_ error: InputError) { problem = Problem(error) }
}

enum Output {
    static func write(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
        FileHandle.standardOutput.write(Data([0x0A]))
    }

    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Runs a command body, turning input problems into exit code 2 with the problem on stderr.
    static func guarded(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data(failure.problem.json(status: failure.problem.httpStatus, indent: 2)))
            FileHandle.standardError.write(Data([0x0A]))
            throw ExitCode(2)
        }
    }
}
