import TapTraceCore

/// Input an importer cannot turn into a scene: where (1-based line and column of the input as
/// given, including any `#` lines above the dump) and what. Never a partial scene.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    /// The importer the input looks made for, when it reached another one.
    public var suggestedFormat: ImportFormat?

    public init(line: Int, column: Int, message: String) {
        self.line = line; self.column = column; self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }

    /// The problem document for the CLI (exit 2) and HTTP (422): type `import-syntax`, with
    /// `line` and `column` set.
    public var problem: Problem {
        var detail = "Line \(line), column \(column): \(message)."
        if let other = suggestedFormat {
            detail += " This looks like \(other.title): import it as \(other.rawValue) (POST /v1/import/\(other.rawValue), taptrace import \(other.rawValue)), or let POST /v1/import (taptrace import auto) recognise it."
        }
        var p = Problem(kind: .importSyntax, title: "Malformed import input", detail: detail)
        p.line = line
        p.column = column
        return p
    }
}

extension Problem.Kind {
    /// A dump an importer cannot read (with the line and column where it broke).
    public static let importSyntax = Problem.Kind("import-syntax")
}
