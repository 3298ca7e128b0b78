@testable import TapTraceJSON
import Testing

/// `JSONDecimal` must write exactly what `Double.description` writes, or decline.
struct JSONDecimalTests {
    /// What the fast path writes for `value`, or nil when it declines.
    static func fast(_ value: Double) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONDecimal.maxBytes) { scratch in
            JSONDecimal.write(value, to: scratch.baseAddress!).map { String(decoding: scratch[..<$0], as: UTF8.self) }
        }
    }

    @Test func everyThreeDecimalNumberUpToAThousand() {
        var mismatches: [String] = []
        var written = 0
        for n in -1_000_000...1_000_000 where n % 1000 != 0 {
            let value = Double(n) / 1000
            guard let text = Self.fast(value) else { mismatches.append("declined \(value)"); continue }
            written += 1
            if text != value.description { mismatches.append("\(value.description) written as \(text)") }
        }
        #expect(mismatches.prefix(10) == [], "\(mismatches.count) mismatches")
        #expect(written == 1_998_000)
    }

    @Test func randomNumbersAreWrittenLikeDescriptionOrDeclined() {
        var generator = SplitMix(seed: 0x7A9_7ACE)
        var mismatches: [String] = []
        var written = 0
        for k in 0..<400_000 {
            let value: Double
            switch k % 4 {
            case 0: value = Double(Int64(bitPattern: generator.next()) % 8_589_934_592_000) / 1000       // three decimals, large
            case 1: value = Double(Int64(bitPattern: generator.next()) % 100_000_000) / 100               // two decimals
            case 2: value = Double(bitPattern: generator.next() & 0x41EF_FFFF_FFFF_FFFF)                   // any double below 2^31
            default: value = (Double(generator.next() % 1_000_000) / 1000) * (k % 8 == 3 ? 1e7 : 1e-3)   // scaled out of range
            }
            guard value.isFinite, value != value.rounded(.towardZero) else { continue }
            if let text = Self.fast(value) {
                written += 1
                if text != value.description { mismatches.append("\(value.description) written as \(text)") }
            }
        }
        #expect(mismatches.prefix(10) == [], "\(mismatches.count) mismatches")
        #expect(written > 150_000)
    }

    @Test(arguments: [0.0001, 0.0005, 1e-7, 8_589_934_592.5, 1e17 + 0.5, 0.1 + 0.2, 1.0 / 3, -0.0, 12.0, .nan, .infinity])
    func declinedWhereDescriptionDecides(_ value: Double) {
        #expect(Self.fast(value) == nil)
    }

    /// Integers: both writers share `writeDigits`; every width, both signs, the extremes.
    @Test func integersAreWrittenLikeString() {
        var values: [Int] = [0, 1, -1, 9, 10, 99, 100, -100, 999, 1000, Int.max, Int.min, Int.min + 1]
        var p = 1
        for _ in 0..<18 { p *= 10; values += [p - 1, p, p + 1, -p, -(p - 1)] }
        for value in values {
            var w = JSONWriter()
            w.number(value)
            var e = ByteEmitter(capacity: 8)
            e.integer(value)
            #expect(w.text == String(value))
            #expect(String(decoding: e.bytes, as: UTF8.self) == String(value))
        }
    }

    @Test func writersUseIt() {
        var w = JSONWriter()
        w.numbers(276.5, -0.08, 0.001, 1e-05, 100)
        #expect(w.text == "[276.5,-0.08,0.001,1e-05,100]")
        var e = ByteEmitter(capacity: 8)
        e.number(276.5); e.byte(0x2C); e.number(-0.08); e.byte(0x2C); e.number(0.1 + 0.2); e.byte(0x2C); e.integer(-7)
        #expect(String(decoding: e.bytes, as: UTF8.self) == "276.5,-0.08,0.30000000000000004,-7")
    }
}

/// A small deterministic generator (the test must give the same numbers on every run).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
