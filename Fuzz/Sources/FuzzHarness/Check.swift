import TapTraceJSON

/// Checks that turn a wrong answer into a crash libFuzzer reports: a trap, like any other
/// precondition failure, so that the input is saved as a reproducer.
enum Check {
    /// Stops the process with `message` when `condition` does not hold.
    static func that(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                     file: StaticString = #fileID, line: UInt = #line) {
        if !condition() { fatalError("fuzz check failed: \(message())", file: file, line: line) }
    }

    /// `bytes` are one JSON document (what every writer of TapTrace promises).
    static func isJSON(_ bytes: [UInt8], _ what: @autoclosure () -> String,
                       file: StaticString = #fileID, line: UInt = #line) {
        do throws(JSONSyntaxError) {
            _ = try JSONTape(parsing: bytes)
        } catch {
            fatalError("fuzz check failed: \(what()) is not JSON: \(error)", file: file, line: line)
        }
    }

    /// A line and column an error names lie within `input` (lines and columns count from 1; the
    /// column may be one past the line's last byte, where input ends unexpectedly).
    static func isPosition(line: Int, column: Int, in input: [UInt8], _ what: @autoclosure () -> String,
                           file: StaticString = #fileID, sourceLine: UInt = #line) {
        var lines = 1, longest = 0, current = 0
        for b in input {
            if b == UInt8(ascii: "\n") { lines += 1; longest = max(longest, current); current = 0 } else { current += 1 }
        }
        longest = max(longest, current)
        Check.that(line >= 1 && line <= lines && column >= 1 && column <= longest + 1,
                   "\(what()) names line \(line), column \(column); the input has \(lines) lines of at most \(longest) bytes",
                   file: file, line: sourceLine)
    }
}

/// libFuzzer's answers from `LLVMFuzzerTestOneInput`.
public enum FuzzVerdict {
    /// The input was run.
    public static let ran: Int32 = 0
    /// The input is outside what the target explores (for instance: more records than the
    /// bound below); libFuzzer does not add it to the corpus.
    public static let rejected: Int32 = -1
}
