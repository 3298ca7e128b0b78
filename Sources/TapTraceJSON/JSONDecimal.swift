/// Numbers with at most three decimals (`0.08`, `276.5`, `-12.125`), written without going
/// through `Double.description`, with exactly the bytes it gives.
///
/// Trace times, points and knobs are such numbers, a result has dozens, and `description`
/// (Swift's shortest round-trip algorithm, then a `String`) cost about 450 instructions each,
/// 5 % of encoding a result (callgrind).
///
/// Why the bytes are the same: `value` qualifies when, for `n` the integer nearest
/// `value × 1000`, `Double(n) / 1000 == value`, i.e. `value` is the double nearest the decimal `n / 1000`
/// (IEEE division of two exact operands is correctly rounded), so that decimal reads back as
/// `value`. Below 2^33 the doubles around `value` are less than 2^-19 apart, far closer than
/// 0.001, so no other decimal with three or fewer decimals reads back as `value`, and one
/// with more digits is longer: `n / 1000` with its trailing zeros dropped is the shortest
/// round-trip form, which is what `description` prints in plain notation for magnitudes
/// from 0.001 up (it switches to exponents below 1e-4 and from 1e16). A test compares the
/// two over every such number up to ±1,000 and random ones beyond.
@usableFromInline enum JSONDecimal {
    /// The most bytes `write` produces.
    @usableFromInline static let maxBytes = 24

    /// Writes `value` at `out` and returns the number of bytes, or nil when `value` is not the
    /// double nearest a non-integral decimal with at most three decimals below 2^33.
    @usableFromInline static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        guard abs(value) < 8_589_934_592 else { return nil }   // also false for NaN
        let n = Int((value * 1000).rounded())
        guard Double(n) / 1000 == value, n % 1000 != 0 else { return nil }
        var p = out
        if n < 0 { p.pointee = 0x2D; p += 1 }
        let magnitude = n.magnitude
        p += writeDigits(magnitude / 1000, to: p)
        p.pointee = 0x2E; p += 1
        var fraction = magnitude % 1000
        var digits = 3
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        var k = digits - 1
        while k >= 0 {
            p[k] = UInt8(fraction % 10) + 0x30
            fraction /= 10
            k -= 1
        }
        p += digits
        return p - out
    }

    /// The decimal digits of `value` at `out`; returns how many.
    @inlinable @inline(__always)
    static func writeDigits(_ value: UInt, to out: UnsafeMutablePointer<UInt8>) -> Int {
        // Most numbers of a trace are seqs, depths and small coordinates.
        if value < 10 { out[0] = UInt8(value) + 0x30; return 1 }
        if value < 100 { writePair(value, to: out); return 2 }
        var digits = 3
        var limit: UInt = 1000
        while digits < 20 && value >= limit { digits += 1; limit &*= 10 }
        // Two digits at a time from the end, from a table of "00" to "99": half the divisions
        // of a digit loop.
        var v = value
        var k = digits
        while k >= 2 {
            k -= 2
            writePair(v % 100, to: out + k)
            v /= 100
        }
        if k == 1 { out[0] = UInt8(v) + 0x30 }
        return digits
    }

    /// "00" … "99".
    @usableFromInline static var pairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }

    /// The two decimal digits of `value` (below 100) at `out`.
    @inlinable @inline(__always)
    static func writePair(_ value: UInt, to out: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(out).storeBytes(
            of: UnsafeRawPointer(pairs.utf8Start).loadUnaligned(fromByteOffset: Int(value) * 2, as: UInt16.self), as: UInt16.self)
    }
}
