/// Collects warnings while importing. Repeated observations (an ignored field on every line, a
/// recognizer list on many views) are grouped into one warning that names them, so a
/// 20,000-line dump gives a short list. Adding is O(1).
struct ImportWarnings {
    private var messages: [String] = []
    private var seen: Set<String> = []
    /// Grouped observations: a heading and the items seen under it, in first-seen order.
    private var groups: [(heading: String, items: [String], counts: [String: Int])] = []
    private var groupIndex: [String: Int] = [:]
    static let itemsShown = 12

    /// A warning given once, however often it is noted.
    mutating func note(_ message: String) {
        if seen.insert(message).inserted { messages.append(message) }
    }

    /// Adds `item` under `heading`; items are counted, and listed once each.
    mutating func add(_ heading: String, _ item: String) {
        let g: Int
        if let i = groupIndex[heading] {
            g = i
        } else {
            g = groups.count
            groupIndex[heading] = g
            groups.append((heading, [], [:]))
        }
        if let n = groups[g].counts[item] {
            groups[g].counts[item] = n + 1
        } else {
            groups[g].counts[item] = 1
            groups[g].items.append(item)
        }
    }

    /// The plain notes first, then one line per group: "heading: a (×3), b, c … and 4 more".
    var list: [String] {
        var out = messages
        for g in groups {
            let shown = g.items.prefix(ImportWarnings.itemsShown).map { item -> String in
                let n = g.counts[item] ?? 1
                return n > 1 ? "\(item) (×\(n))" : item
            }
            var line = g.heading + ": " + shown.joined(separator: ", ")
            if g.items.count > ImportWarnings.itemsShown { line += " … and \(g.items.count - ImportWarnings.itemsShown) more" }
            out.append(line)
        }
        return out
    }
}
