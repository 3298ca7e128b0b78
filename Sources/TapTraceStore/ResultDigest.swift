/// The `digest` of a stored result (migration 0002): a 64-bit hash of the document's bytes
/// that finds candidate rows to share; equality is always confirmed on the bytes themselves,
/// so the hash only has to spread well and run fast (a 20 KB trace is hashed on every stored
/// dispatch). Eight bytes at a time, multiply and rotate, with a final avalanche.
///
/// The values are stored: changing this function makes existing results unshareable (never
/// wrong), so it changes only with a migration that clears the old digests.
public enum ResultDigest {
    public static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        let k1: UInt64 = 0x9E37_79B9_7F4A_7C15, k2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var a: UInt64 = 0x2545_F491_4F6C_DD1D ^ UInt64(bytes.count)
        var b: UInt64 = 0x1656_67B1_9E37_79F9
        var i = 0
        let count = bytes.count
        // Two lanes, so consecutive multiplications do not wait on each other.
        while i + 16 <= count {
            a = rotate((a ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k1, 29)
            b = rotate((b ^ bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)) &* k2, 31)
            i += 16
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(bytes[i]) << shift
            shift += 8
            i += 1
            if shift == 64 {
                a = rotate((a ^ tail) &* k1, 29)
                tail = 0
                shift = 0
            }
        }
        b = rotate((b ^ tail) &* k2, 31)
        var h = a ^ rotate(b, 17)
        // splitmix64's finalizer.
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        h ^= h >> 31
        return Int64(bitPattern: h)
    }

    public static func of(_ bytes: [UInt8]) -> Int64 { bytes.withUnsafeBytes { of($0) } }

    @inline(__always)
    private static func rotate(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
}
