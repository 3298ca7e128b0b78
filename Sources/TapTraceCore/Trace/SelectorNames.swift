/// Objective-C selectors and their Swift spellings (§5.1).
public enum SelectorNames {
    /// The Swift spelling: known UIKit names from §5.1 (`UIKitSelector`); an action selector such as
    /// `buttonTapped:forEvent:` becomes `buttonTapped(_:forEvent:)`.
    public static func swift(_ selector: String) -> String {
        if let known = UIKitSelector.byName[selector] { return known.names.swift }
        let parts = selector.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return selector + "()" }
        var labels = ["_"]
        for p in parts.dropFirst().dropLast() { labels.append(String(p)) }
        return String(parts[0]) + "(" + labels.map { $0 + ":" }.joined() + ")"
    }

    /// Arguments an action method takes (A5): the number of colons.
    public static func argumentCount(_ selector: String) -> Int {
        selector.reduce(0) { $0 + ($1 == ":" ? 1 : 0) }
    }
}
