import TapTraceJSON

/// The work a touches document asks for is not bounded yet (issue 34, item 1: a drag's `steps`
/// expands into that many records, so `"steps": 1000000` in a few hundred bytes asks for
/// gigabytes). The fuzz targets stay below that known case, so that libFuzzer looks for other
/// failures instead of finding it again and again.
enum ExpansionBound {
    /// The most records a fuzzed request may dispatch.
    static let maximumRecords = 1_000

    /// Whether the `steps` of all drags in `bytes` add up to more than `maximumRecords`: every
    /// number that follows a string `steps` in document order counts (each member `steps`
    /// wherever it is, and the odd array element too, which only makes the bound stricter).
    /// Not JSON: false, the decoder reports it.
    static func exceeded(_ bytes: [UInt8]) -> Bool {
        guard let tape = try? JSONTape(parsing: bytes) else { return false }
        var total = 0.0
        // The tape lists every node in document order, a member's key just before its value.
        var i = 0
        var previousWasStepsKey = false
        while i < tape.nodeCount {
            let kind = tape.kind(i)
            if previousWasStepsKey, kind == .number, let n = tape.number(i) {
                total += n.isFinite ? max(0, n) : .infinity
            }
            previousWasStepsKey = kind == .string && tape.stringEquals(i, "steps")
            i += 1
        }
        return total > Double(maximumRecords)
    }
}
