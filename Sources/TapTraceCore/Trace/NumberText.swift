/// How a number reads in a trace note, a validation message or an explanation: integral values
/// below 2^53 as integers ("100", not "100.0"), others in Swift's shortest form that reads back
/// to the same double ("0.1", "1e-05"). JSON numbers are written by the same rule
/// (`JSONWriter.format`), so a note and the value beside it in the trace agree.
enum NumberText {
    static func format(_ value: Double) -> String {
        if value == value.rounded(.towardZero), abs(value) < 9_007_199_254_740_992 {
            return String(Int64(value))
        }
        return value.description
    }
}
