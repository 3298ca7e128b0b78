/// Generates the public ids of stored rows: a prefix and 12 lowercase base32 characters,
/// e.g. `scn_k3v9q2m7xa4d` or `run_7pq2zz0abcde`.
///
/// 12 base32 characters carry 60 random bits from `SystemRandomNumberGenerator`
/// (the OS CSPRNG), so ids are unguessable and collisions are negligible
/// (a `UNIQUE` constraint still guards against one).
public enum StoreID {
    /// Prefix of scene ids.
    public static let scenePrefix = "scn_"
    /// Prefix of run ids.
    public static let runPrefix = "run_"
    /// Number of random characters after the prefix.
    public static let randomLength = 12

    /// RFC 4648 base32 alphabet, lowercased: no 0/1/8/9, so no O/0 or l/1 confusion.
    static let alphabet: [Character] = Array("abcdefghijklmnopqrstuvwxyz234567")

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
    public static func isWellFormed(_ id: String, prefix: String) -> Bool {
        guard id.hasPrefix(prefix) else { return false }
        let rest = id.dropFirst(prefix.count)
        return rest.count == randomLength && rest.allSatisfy { alphabet.contains($0) }
    }
}
