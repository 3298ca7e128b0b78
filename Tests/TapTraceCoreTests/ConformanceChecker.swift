import TapTraceJSON

/// Reading a conformance case's request part, for the tests that dispatch the cases
/// themselves. Checking `expect` is `CaseChecker`'s (TapTraceRuns), the one implementation
/// `taptrace check`, `POST /v1/check` and `ConformanceTests` share.
enum ConformanceChecker {
    /// The request part of a case (`scene`, `touches`, `knobs`), byte for byte as the case wrote it.
    static func request(from tape: JSONTape) -> [UInt8] {
        var out: [UInt8] = Array("{".utf8)
        var first = true
        for (k, v) in tape.members(tape.root) {
            guard let key = tape.string(k), ["scene", "touches", "knobs"].contains(key) else { continue }
            if !first { out.append(0x2C) }
            first = false
            out += Array("\"\(key)\":".utf8)
            out += tape.rawBytes(v)
        }
        return out + Array("}".utf8)
    }

    static func member(_ t: JSONTape, _ node: Int, _ key: String) -> Int? {
        t.member(node, key)
    }
}
