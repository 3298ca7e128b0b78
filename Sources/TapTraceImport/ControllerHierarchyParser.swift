/// One line of `-[UIViewController _printHierarchy]`:
///
///     <marks><Class 0xADDR>, state: appeared, view: <ViewClass 0xADDR>[ not in the window][, presented with: <Class 0xADDR>]
///
/// `marks` are `|` columns (written `   | `, then `|    | `): their number is the depth. A `+`
/// as the last mark means the controller was PRESENTED by the one it hangs under; a `|` means
/// it is that one's child. An unloaded view prints `view: (view not loaded)` (iOS 9 printed two
/// spaces after `view:`); newer iOS prints the view with a colon (`<UILayoutContainerView:
/// 0x…>`); addresses may be purged (`<UITabBarController>`). A controller printed without a
/// window prints its own root line as presented (`   + <Root>, …, presented with: (null)`),
/// with its children at the same number of marks: such a root's `+` is not a level.
struct ControllerLine {
    var controller: ObjectReference
    var state: String
    /// nil: `(view not loaded)`.
    var view: ObjectReference?
    var inWindow: Bool
    /// `+`: presented by `parent`; else a child of `parent` (or a root).
    var presented: Bool
    /// Index (in the parser's result) of the controller this one hangs under.
    var parent: Int?
}

enum ControllerHierarchyParser {
    /// The controllers of the lines in `range`, in the order printed. Blank lines are skipped
    /// (depth is read from each line's marks, never from the line above). Refuses a line that
    /// does not read, at its line and column.
    static func parse(_ src: SourceText, _ range: Range<Int>) throws(ImportError) -> [ControllerLine] {
        var out: [ControllerLine] = []
        var stack: [(depth: Int, index: Int)] = []
        var rootDepth: Int?
        var lo = range.lowerBound
        while lo < range.upperBound {
            let hi = min(src.lineEnd(from: lo), range.upperBound)
            defer { lo = hi + 1 }
            let text = try AddOnText(src, lo..<hi, unquote: false)
            var c = AddOnCursor(text, src)
            c.skipSpaces()
            if c.atEnd { continue }
            // Marks.
            var marks = 0
            var lastMark: UInt8 = 0
            while !c.atEnd, c.current == UInt8(ascii: "|") || c.current == UInt8(ascii: "+") || c.current == 0x20 || c.current == 0x09 {
                if c.current != 0x20, c.current != 0x09 { marks += 1; lastMark = c.current }
                c.i += 1
            }
            _ = c.take("`")  // Cycript's quotes around a string result
            let lineStart = c.i
            var line = try readLine(&c)
            // Depth.
            var depth = marks
            if rootDepth == nil {
                if lastMark == UInt8(ascii: "+") {
                    // A root printed as presented (no window): its `+` is not a level.
                    depth = marks - 1
                }
                rootDepth = depth
            } else {
                line.presented = lastMark == UInt8(ascii: "+")
            }
            if let last = stack.last, depth > last.depth + 1 {
                throw c.error("this controller is \(depth) levels deep but the one above it is \(last.depth) deep: a line is missing in between", at: lineStart)
            }
            while let last = stack.last, last.depth >= depth { stack.removeLast() }
            if stack.isEmpty, let r = rootDepth, depth > r {
                throw c.error("this controller is \(depth) levels deep but there is no controller above it at depth \(depth - 1)", at: lineStart)
            }
            line.parent = stack.last?.index
            if line.parent == nil { line.presented = false }
            stack.append((depth, out.count))
            out.append(line)
        }
        return out
    }

    /// From `<Class 0xADDR>` to the end of the line.
    private static func readLine(_ c: inout AddOnCursor) throws(ImportError) -> ControllerLine {
        let controller = try c.objectReference("a view controller")
        try c.expect(",", "', state:' after the controller")
        c.skipSpaces()
        try c.expect("state:", "'state:' after the controller")
        c.skipSpaces()
        let state = c.word()
        guard !state.isEmpty else { throw c.error("expected the controller's state (appeared, appearing, disappearing, disappeared), found \(c.found)") }
        try c.expect(",", "', view:' after the state")
        c.skipSpaces()
        try c.expect("view:", "'view:' after the state")
        c.skipSpaces()
        var view: ObjectReference?
        if c.isAt("(") {
            try c.expect("(view not loaded)", "'(view not loaded)' or the view like <UIView 0x7f…>")
        } else {
            view = try c.objectReference("the controller's view")
        }
        var line = ControllerLine(controller: controller, state: state, view: view, inWindow: true, presented: false, parent: nil)
        c.skipSpaces()
        if c.take("not in the window") { line.inWindow = false }
        c.skipSpaces()
        if c.take(",") {
            c.skipSpaces()
            try c.expect("presented with:", "'presented with:' (the presentation controller)")
            c.skipSpaces()
            // The presentation controller's class is not modelled (R3 needs the presenter only).
            if !c.take("(null)") { _ = try c.objectReference("the presentation controller") }
            c.skipSpaces()
        }
        _ = c.take("`")
        c.skipSpaces()
        guard c.atEnd else {
            throw c.error("unexpected \(c.found) after the controller's view; a _printHierarchy line ends with its view, ' not in the window' or ', presented with: <…>'")
        }
        return line
    }
}
