/// Objective-C selectors and their Swift spellings (§5.1).
public enum SelectorNames {
    /// The Swift spelling: known UIKit names from §5.1 (`UIKitSelector`); an action selector such as
    /// `buttonTapped:forEvent:` becomes `buttonTapped(_:forEvent:)`.
    public static func swift(_ selector: String) -> String {
        if let known = UIKitSelector.byName[selector] { return known.names.swift }
        if let ascii = asciiSwift(selector) { return ascii }
        let parts = selector.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return selector + "()" }
        var labels = ["_"]
        for p in parts.dropFirst().dropLast() { labels.append(String(p)) }
        return String(parts[0]) + "(" + labels.map { $0 + ":" }.joined() + ")"
    }

    /// `swift(_:)` for an ASCII selector, byte by byte: splitting into substrings and joining
    /// labels cost about 9,000 instructions per action selector, more than the rest of its
    /// trace entry (callgrind). In ASCII a colon is a character of its own, so the
    /// split is the same; other selectors (nil here) take the general path.
    private static func asciiSwift(_ selector: String) -> String? {
        var selector = selector
        return selector.withUTF8 { b -> String? in
            var firstColon = -1
            for k in b.indices {
                if b[k] >= 0x80 { return nil }
                if firstColon < 0 && b[k] == 0x3A { firstColon = k }
            }
            guard firstColon >= 0 else { return nil }
            // name(_:label:…:) — the part after the last colon is dropped, as in the general path.
            var out: [UInt8] = []
            out.reserveCapacity(b.count + 4)
            out.append(contentsOf: b[..<firstColon])
            out.append(contentsOf: [0x28, 0x5F, 0x3A])                      // "(_:"
            var start = firstColon + 1
            for k in start..<b.count where b[k] == 0x3A {
                out.append(contentsOf: b[start...k])                         // "label:"
                start = k + 1
            }
            out.append(0x29)                                                 // ")"
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Arguments an action method takes (A5): the number of colons.
    public static func argumentCount(_ selector: String) -> Int {
        // ASCII selectors by byte (a colon is a character of its own there): going through
        // Characters cost 2,000 instructions per action sent (callgrind).
        var colons = 0
        for b in selector.utf8 {
            if b >= 0x80 { return selector.reduce(0) { $0 + ($1 == ":" ? 1 : 0) } }
            if b == 0x3A { colons += 1 }
        }
        return colons
    }
}
