/// A trace note written as a string interpolation but assembled as UTF-8 bytes, which the
/// recorder copies into its note storage (no `String` is made). Literal pieces are copied from
/// static memory and lists are joined in place; `String` interpolation grew its storage piece
/// by piece and `joined` built a string per list, together the largest cost of a tap's
/// dispatch (callgrind, the tap of bench/make-scene.py). The text is the same, byte for byte.
///
///     trace.marker(…, note: "\(id) withheld by \(names, joinedBy: ", ")")
struct NoteText: ExpressibleByStringInterpolation {
    private(set) var bytes: [UInt8]

    init(_ note: NoteText) { self = note }
    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }
    init(stringLiteral value: StaticString) {
        bytes = []
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
    init(stringInterpolation: Interpolation) { bytes = stringInterpolation.bytes }

    /// The note as a `String` (the recorder keeps the bytes; this is the text they say).
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends more text (notes with optional parts). The pieces are appended one by one, not
    /// as an interpolation: each of those would fill a buffer of its own first.
    mutating func append(_ literal: StaticString) { literal.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
    mutating func append(_ list: [String], prefix: StaticString = "", joinedBy separator: StaticString) {
        Self.join(list, prefix: prefix, suffix: "", separator: separator, into: &bytes)
    }

    /// `list.map { prefix + $0 + suffix }.joined(separator:)` appended to `bytes`, without the
    /// intermediate strings (for `append` and for interpolations alike).
    fileprivate static func join(_ list: [String], prefix: StaticString, suffix: StaticString, separator: StaticString,
                                 into bytes: inout [UInt8]) {
        for (k, s) in list.enumerated() {
            if k > 0 { separator.withUTF8Buffer { bytes.append(contentsOf: $0) } }
            prefix.withUTF8Buffer { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: s.utf8)
            suffix.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }
    }

    struct Interpolation: StringInterpolationProtocol {
        fileprivate var bytes: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + 24 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: StaticString) {
            literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func appendInterpolation(_ s: String) { bytes.append(contentsOf: s.utf8) }

        mutating func appendInterpolation(_ list: [String], prefix: StaticString = "", suffix: StaticString = "",
                                          joinedBy separator: StaticString) {
            NoteText.join(list, prefix: prefix, suffix: suffix, separator: separator, into: &bytes)
        }
    }
}
