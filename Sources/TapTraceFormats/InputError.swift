import TapTraceCore
import TapTraceJSON

/// Why an input could not be used: not JSON at all, or JSON that fails validation.
public enum InputError: Error, Sendable, CustomStringConvertible {
    case syntax(JSONSyntaxError)
    case invalid(ValidationFailure)
    public var description: String {
        switch self {
        case .syntax(let e): return "malformed JSON at \(e)"
        case .invalid(let f): return f.description
        }
    }
}

extension Problem.Kind {
    /// A body or file that is not JSON at all.
    public static let malformedJSON = Problem.Kind("malformed-json")
}

extension Problem {
    /// Malformed JSON (with its line and column) or an invalid document (with every issue).
    public init(_ error: InputError) {
        switch error {
        case .syntax(let e):
            self.init(kind: .malformedJSON, title: "Malformed JSON",
                      detail: "The body is not valid JSON: \(e.message) at line \(e.line), column \(e.column).")
            line = e.line
            column = e.column
        case .invalid(let failure):
            self.init(failure)
        }
    }
}
