/// Collects warnings while importing. Repeated observations (an ignored field on every line, a
/// recognizer list on many views) are grouped into one warning that names them, so a
/// 20,000-line dump gives a short list.
struct ImportWarnings {
    private var messages: [String] = []
    private var seen: Set<String> = []
    /// Grouped observations: a heading and the items seen under it, in first-seen order.
    private var groups: [String: (order: Int, items: [String], counts: [String: Int])] = [:]
    private var groupOrder = 0
    static let itemsShown = 12

    /// A warning given once, however often it is noted.
    mutating func note(_ message: String) {
        if seen.insert(message).inserted { messages.append(message) }
    }

    /// Adds `item` under `heading`; items are counted, and listed once each.
    mutating func add(_ heading: String, _ item: String) {
        if var g = groups[heading] {
            if let n = g.counts[item] { g.counts[item] = n + 1 } else { g.items.append(item); g.counts[item] = 1 }
            groups[heading] = g
        } else {
            groups[heading] = (groupOrder, [item], [item: 1])
            groupOrder += 1
        }
    }

    /// The plain notes first, then one line per group: "heading: a (×3), b, c … and 4 more".
    var list: [String] {
        var out = messages
        for (heading, g) in groups.sorted(by: { $0.value.order < $1.value.order }) {
            let shown = g.items.prefix(ImportWarnings.itemsShown).map { item -> String in
                let n = g.counts[item] ?? 1
                return n > 1 ? "\(item) (×\(n))" : item
            }
            var line = heading + ": " + shown.joined(separator: ", ")
            if g.items.count > ImportWarnings.itemsShown { line += " … and \(g.items.count - ImportWarnings.itemsShown) more" }
            out.append(line)
        }
        return out
    }
}
