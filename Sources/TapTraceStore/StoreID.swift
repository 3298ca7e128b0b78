/// Generates the public ids of stored rows: a prefix and 12 lowercase base32 characters,
/// e.g. `scn_k3v9q2m7xa4d` or `run_7pq2zz0abcde`.
///
/// Scene ids carry 60 random bits from `SystemRandomNumberGenerator` (the OS CSPRNG), so
/// collisions are negligible (a `UNIQUE` constraint still guards against one). Run ids carry
/// a 60-bit value that grows as runs are written (``RunIDSequence``, decision 51), in the same
/// characters written in their sort order (``sortedAlphabet``).
public enum StoreID {
    /// Prefix of scene ids.
    public static let scenePrefix = "scn_"
    /// Prefix of run ids.
    public static let runPrefix = "run_"
    /// Number of characters after the prefix (random ones for scenes, ``sorted(_:prefix:)`` for runs).
    public static let randomLength = 12

    /// RFC 4648 base32 alphabet, lowercased: no 0/1/8/9, so no O/0 or l/1 confusion.
    static let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz234567")

    /// The same 32 characters in byte order: a value written with them, most significant
    /// character first, sorts as text as it does as a number.
    static let sortedAlphabet: [UInt8] = Array("234567abcdefghijklmnopqrstuvwxyz".utf8)

    /// `value`'s low 60 bits after `prefix`, most significant first, in ``sortedAlphabet``.
    package static func sorted(_ value: UInt64, prefix: String) -> String {
        var id = prefix
        id.reserveCapacity(prefix.utf8.count + randomLength)
        for index in (0..<randomLength).reversed() {
            id.unicodeScalars.append(Unicode.Scalar(sortedAlphabet[Int((value >> UInt64(index * 5)) & 31)]))
        }
        return id
    }

    /// The value ``sorted(_:prefix:)`` wrote into `id`; nil for anything not well formed.
    package static func sortedValue(of id: String, prefix: String) -> UInt64? {
        guard id.hasPrefix(prefix), id.utf8.count == prefix.utf8.count + randomLength else { return nil }
        var value: UInt64 = 0
        for byte in id.utf8.dropFirst(prefix.utf8.count) {
            guard let digit = sortedAlphabet.firstIndex(of: byte) else { return nil }
            value = value << 5 | UInt64(digit)
        }
        return value
    }

    /// A new id with `prefix`, drawing 60 bits from `generator`.
    public static func make<G: RandomNumberGenerator>(prefix: String, using generator: inout G) -> String {
        let bits = generator.next()
        var id = prefix
        for index in 0..<randomLength {
            id.append(alphabet[Int((bits >> UInt64(index * 5)) & 31)])
        }
        return id
    }

    /// A new id with `prefix` from the system's secure generator.
    public static func make(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(prefix: prefix, using: &generator)
    }

    /// Whether `id` looks like an id this type makes with `prefix` (cheap input validation).
    ///
    /// Checked on UTF-8 bytes: every character of an id is ASCII, and any other byte (a
    /// combining mark, a look-alike letter) is outside the alphabet, so the answer is the one
    /// of comparing characters. Comparing `Character`s against ``alphabet`` cost about 11k
    /// instructions per id, once per stored dispatch (callgrind); prefixes
    /// are expected to be ASCII, as ``scenePrefix`` and ``runPrefix`` are.
    public static func isWellFormed(_ id: String, prefix: String) -> Bool {
        let bytes = id.utf8, head = prefix.utf8
        guard bytes.count == head.count + randomLength, bytes.starts(with: head) else { return false }
        return bytes.dropFirst(head.count).allSatisfy(isAlphabetByte)
    }

    /// Whether `byte` is one of the 32 characters of ``alphabet`` (and ``sortedAlphabet``):
    /// `a`–`z` and `2`–`7`.
    static func isAlphabetByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(byte)
    }
}
