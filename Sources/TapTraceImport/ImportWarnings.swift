/// Collects warnings while importing. Repeated observations (an ignored field on every line, a
/// recognizer list on many views) are grouped into one warning that names them, so a
/// 20,000-line dump gives a short list. Adding is O(1).
///
/// The list reads in order of consequence: what changes the answer of a tap (views assumed
/// interactive, synthesized windows, elided lines, missing controllers) first, then what the
/// dump said that was not modelled, and the tally of ignored fields last.
///
/// A warning may name views by their index in the scene: the name is written when the list is
/// read, after the ids are final (`ImportIdentity`), as `id (0xADDRESS)` where the dump gave an
/// address, so a warning can be matched to the dump and to the scene alike.
struct ImportWarnings {
    enum Weight: Int, Comparable {
        /// Changes what a tap does: an assumption the dump could not confirm.
        case behaviour
        /// Something the dump said (or left out) that is worth knowing.
        case notice
        /// Fields the dump printed that have no effect here.
        case ignored
        static func < (a: Weight, b: Weight) -> Bool { a.rawValue < b.rawValue }
    }

    enum Item: Hashable {
        case text(String)
        /// A view of the scene by index, with optional text after its name.
        case view(Int, String)
    }

    private struct Group {
        var heading: String
        var weight: Weight
        var items: [Item] = []
        var counts: [Item: Int] = [:]
    }

    private var notes: [(weight: Weight, text: String)] = []
    private var seen: Set<String> = []
    private var groups: [Group] = []
    private var groupIndex: [String: Int] = [:]
    static let itemsShown = 12

    /// A warning given once, however often it is noted.
    mutating func note(_ message: String, _ weight: Weight = .notice) {
        if seen.insert(message).inserted { notes.append((weight, message)) }
    }

    /// Adds `item` under `heading`; items are counted, and listed once each.
    mutating func add(_ heading: String, _ item: String, _ weight: Weight = .notice) {
        add(heading, .text(item), weight)
    }

    /// Adds view `view` (an index into the scene's views) under `heading`.
    mutating func add(_ heading: String, view: Int, _ suffix: String = "", _ weight: Weight = .notice) {
        add(heading, .view(view, suffix), weight)
    }

    private mutating func add(_ heading: String, _ item: Item, _ weight: Weight) {
        let g: Int
        if let i = groupIndex[heading] {
            g = i
        } else {
            g = groups.count
            groupIndex[heading] = g
            groups.append(Group(heading: heading, weight: weight))
        }
        if let n = groups[g].counts[item] {
            groups[g].counts[item] = n + 1
        } else {
            groups[g].counts[item] = 1
            groups[g].items.append(item)
        }
    }

    /// The warnings, weightiest first; within a weight, plain notes before groups, each in the
    /// order first seen. A group is one line: "heading: a (×3), b, c … and 4 more".
    func list(naming name: (Int) -> String) -> [String] {
        var out: [String] = []
        for weight in [Weight.behaviour, .notice, .ignored] {
            for n in notes where n.weight == weight { out.append(n.text) }
            for g in groups where g.weight == weight {
                let shown = g.items.prefix(ImportWarnings.itemsShown).map { item -> String in
                    let text: String
                    switch item {
                    case .text(let s): text = s
                    case .view(let v, let suffix): text = name(v) + suffix
                    }
                    let n = g.counts[item] ?? 1
                    return n > 1 ? "\(text) (×\(n))" : text
                }
                var line = g.heading + ": " + shown.joined(separator: ", ")
                if g.items.count > ImportWarnings.itemsShown { line += " … and \(g.items.count - ImportWarnings.itemsShown) more" }
                out.append(line)
            }
        }
        return out
    }
}
