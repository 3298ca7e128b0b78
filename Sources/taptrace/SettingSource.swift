/// Where a setting of `serve` or of a command comes from: its flag when given, else its
/// environment variable (trimmed; an empty one counts as unset). Every option group reads its
/// settings through these, so that all of them treat the environment the same way.
enum SettingSource {
    /// The environment variable's value, trimmed; nil when it is unset or empty.
    static func variable(_ name: String, in environment: [String: String]) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    /// The flag's value, else the variable's, with the name an error about it should give
    /// (the flag, or the variable); nil when neither is given.
    static func text(flag value: String?, _ flag: String, variable: String,
                     in environment: [String: String]) -> (text: String, source: String)? {
        if let value { return (value, flag) }
        return self.variable(variable, in: environment).map { ($0, variable) }
    }

    /// `65536`, `512K`, `64M`, `2G`: bytes, in powers of 1,024, either case.
    static func byteCount(_ text: String) -> Int? {
        var digits = Substring(text)
        let shift: Int
        switch text.last {
        case "K", "k": shift = 10
        case "M", "m": shift = 20
        case "G", "g": shift = 30
        default: shift = 0
        }
        if shift > 0 { digits = digits.dropLast() }
        guard let n = Int(digits), n >= 0, n <= Int.max >> shift else { return nil }
        return n << shift
    }
}
