import TapTraceCore

/// One `-[UIGestureRecognizer description]`:
///
///     <Class: 0xADDR (name); state = Possible; [enabled = NO;] [cancelsTouchesInView = NO;]
///      [delaysTouchesBegan = YES;] [delaysTouchesEnded = NO;] view = <ViewClass 0xADDR>;
///      target= <(action=sel:, target=<TargetClass 0xADDR>)>[; numberOfTapsRequired = 2 …]
///      [; must-fail = {…}][; must-fail-for = {…}]>
///
/// UIKit prints a field only when it differs from the default. The must-fail sets hold full
/// nested descriptions.
struct RecognizerDescription {
    struct Target {
        var action: String
        var target: ObjectReference
    }

    var recognizer: ObjectReference
    var state: String?
    var enabled: Bool?
    var cancelsTouchesInView: Bool?
    var delaysTouchesBegan: Bool?
    var delaysTouchesEnded: Bool?
    var numberOfTapsRequired: Int?
    var numberOfTouchesRequired: Int?
    var minimumNumberOfTouches: Int?
    var maximumNumberOfTouches: Int?
    var minimumPressDuration: Double?
    var allowableMovement: Double?
    var direction: [SwipeDirection]?
    var view: ObjectReference?
    var targets: [Target] = []
    /// `must-fail = {…}`: the recognizers this one requires to fail (GM6).
    var mustFail: [RecognizerDescription] = []
    /// `must-fail-for = {…}`: the recognizers that require this one to fail.
    var mustFailFor: [RecognizerDescription] = []
    /// Fields printed that have no counterpart in a scene.
    var ignored: [String] = []
    /// Whether it was printed inside another's must-fail set.
    var nested = false
}

/// Reads recognizer descriptions however the list around them was printed: an Objective-C
/// array (`(` … `)`, `<NSArray 0x…>(` … `)`), NSLog's quoted elements with `\n` escapes,
/// Swift's `Optional([` … `])` with an optional label before it (`gestureRecognizers:`), one
/// description per paragraph, or one reformatted over several lines. Text between descriptions
/// other than these wrappers and separators is refused, as is a description cut off or a
/// bracket left open, at its line and column.
enum RecognizerDescriptionParser {
    /// Deep enough for any must-fail set UIKit prints (each level is a nested description).
    static let maximumNesting = 8

    static func parse(_ src: SourceText, _ range: Range<Int>) throws(ImportError) -> [RecognizerDescription] {
        let text = try AddOnText(src, range, unquote: true)
        var c = AddOnCursor(text, src)
        var out: [RecognizerDescription] = []
        var sawDescription = false
        while true {
            c.skipWhite()
            if c.atEnd { break }
            let b = c.current
            if b == UInt8(ascii: ",") || b == UInt8(ascii: "(") || b == UInt8(ascii: ")")
                || b == UInt8(ascii: "[") || b == UInt8(ascii: "]") {
                c.i += 1
                continue
            }
            if c.take("Optional(") { continue }
            if b == UInt8(ascii: "<") {
                if try skipArrayWrapper(&c) { continue }
                if c.take("<nil>") { continue }
                out.append(try description(&c, nesting: 0))
                sawDescription = true
                continue
            }
            if !sawDescription, c.take("nil") { continue }
            if !sawDescription, try skipLabel(&c) { continue }
            throw c.error("expected a recognizer description like <UITapGestureRecognizer: 0x…; state = Possible; view = <UIView 0x…>; target= <(action=tap:, target=<UIView 0x…>)>>, found \(c.found)")
        }
        return out
    }

    /// `<NSArray 0x…>(`, `<__NSArrayM 0x…>(`, `<__NSArrayI: 0x…>(`: the array's own header.
    private static func skipArrayWrapper(_ c: inout AddOnCursor) throws(ImportError) -> Bool {
        let start = c.i
        var k = start + 1
        while let b = c.peek(k - c.i), b != UInt8(ascii: ">"), b != UInt8(ascii: ";"), b != 0x0A { k += 1 }
        guard let close = c.peek(k - c.i), close == UInt8(ascii: ">") else { return false }
        let name = c.string((start + 1)..<k)
        guard name.contains("Array") else { return false }
        var after = k + 1
        while let b = c.peek(after - c.i), b == 0x20 || b == 0x09 { after += 1 }
        guard c.peek(after - c.i) == UInt8(ascii: "(") else { return false }
        c.i = after + 1
        return true
    }

    /// `gestureRecognizers:` (a label printed before the list).
    private static func skipLabel(_ c: inout AddOnCursor) throws(ImportError) -> Bool {
        let start = c.i
        let w = c.word()
        if !w.isEmpty, c.take(":") { return true }
        c.i = start
        return false
    }

    /// One description, the cursor at its `<`.
    private static func description(_ c: inout AddOnCursor, nesting: Int) throws(ImportError) -> RecognizerDescription {
        let start = c.i
        guard nesting <= maximumNesting else {
            throw c.error("must-fail sets nested more than \(maximumNesting) deep")
        }
        c.i += 1
        let classStart = c.i
        var angle = 0
        while !c.atEnd {
            let b = c.current
            if b == UInt8(ascii: "<") { angle += 1 } else if b == UInt8(ascii: ">") {
                if angle == 0 { break }
                angle -= 1
            } else if angle == 0, b == UInt8(ascii: ":") || b == UInt8(ascii: ";") || AddOnText.isWhite(b) {
                break
            }
            c.i += 1
        }
        guard c.i > classStart else { throw c.error("expected a recognizer class name after '<'") }
        var r = RecognizerDescription(recognizer: ObjectReference(className: c.string(classStart..<c.i), address: nil, offset: c.offset(start)))
        let begun = c.src.location(of: r.recognizer.offset)
        func cutOff(_ c: AddOnCursor) -> ImportError {
            c.error("the description of \(r.recognizer.text) begun at line \(begun.line), column \(begun.column) is cut off: expected ';' and a field, or '>'")
        }
        _ = c.take(":")
        c.skipSpaces()
        if c.take("0x") || c.take("0X") {
            let a = c.i
            while !c.atEnd, AddOnCursor.isHexDigit(c.current) { c.i += 1 }
            guard c.i > a else { throw c.error("expected the hex digits of an address after 0x") }
            r.recognizer.address = "0x" + c.string(a..<c.i)
        }
        c.skipSpaces()
        if c.isAt("(") {
            // The recognizer's name, `(multi-select.singleFingerPanGesture)`: not modelled.
            try c.skipBalanced(stopAtSemicolon: true)
        }
        // Fields.
        while true {
            c.skipWhite()
            if c.atEnd { throw cutOff(c) }
            if c.take(">") { break }
            guard c.take(";") else {
                throw c.error("expected ';' or '>' after \(r.ignored.isEmpty && r.state == nil ? "the recognizer's address" : "a field"), found \(c.found)")
            }
            c.skipWhite()
            if c.atEnd { throw cutOff(c) }
            if c.take(">") { break }
            try field(&c, into: &r, nesting: nesting)
        }
        return r
    }

    /// `name = value`; the cursor is left at the `;` or `>` after the value.
    private static func field(_ c: inout AddOnCursor, into r: inout RecognizerDescription, nesting: Int) throws(ImportError) {
        let name = c.word()
        guard !name.isEmpty else { throw c.error("expected a field name like state = …, found \(c.found)") }
        c.skipSpaces()
        guard c.take("=") else { throw c.error("expected '=' after \(name), found \(c.found)") }
        c.skipWhite()
        switch name {
        case "state": r.state = c.word()
        case "enabled": r.enabled = try flag(&c, name)
        case "cancelsTouchesInView": r.cancelsTouchesInView = try flag(&c, name)
        case "delaysTouchesBegan": r.delaysTouchesBegan = try flag(&c, name)
        case "delaysTouchesEnded": r.delaysTouchesEnded = try flag(&c, name)
        case "numberOfTapsRequired": r.numberOfTapsRequired = try integer(&c, name)
        case "numberOfTouchesRequired": r.numberOfTouchesRequired = try integer(&c, name)
        case "minimumNumberOfTouches": r.minimumNumberOfTouches = try integer(&c, name)
        case "maximumNumberOfTouches": r.maximumNumberOfTouches = try integer(&c, name)
        case "minimumPressDuration": r.minimumPressDuration = try number(&c, name)
        case "allowableMovement": r.allowableMovement = try number(&c, name)
        case "view": r.view = try c.objectReference("the recognizer's view")
        case "target", "targets": r.targets += try targets(&c)
        case "must-fail", "must-fail-for":
            let set = try recognizerSet(&c, name, nesting: nesting)
            if name == "must-fail" { r.mustFail += set } else { r.mustFailFor += set }
        case "direction":
            let start = c.i
            try c.skipBalanced(stopAtSemicolon: true)
            let words = c.string(start..<c.i).split { $0 == "," || $0 == "|" || $0 == " " }
            let dirs = words.compactMap { SwipeDirection(rawValue: String($0)) }
            if dirs.count == words.count, !dirs.isEmpty { r.direction = dirs } else { r.ignored.append(name) }
        default:
            try c.skipBalanced(stopAtSemicolon: true)
            r.ignored.append(name)
        }
        c.skipWhite()
        guard c.atEnd || c.isAt(";") || c.isAt(">") else {
            throw c.error("unexpected \(c.found) after the value of \(name): expected ';' or '>'")
        }
    }

    private static func flag(_ c: inout AddOnCursor, _ name: String) throws(ImportError) -> Bool {
        let at = c.i
        switch c.word() {
        case "YES": return true
        case "NO": return false
        default: throw c.error("\(name) must be YES or NO", at: at)
        }
    }

    private static func integer(_ c: inout AddOnCursor, _ name: String) throws(ImportError) -> Int {
        let at = c.i
        guard let n = Int(c.word()), n >= 0 else { throw c.error("\(name) must be a whole number", at: at) }
        return n
    }

    private static func number(_ c: inout AddOnCursor, _ name: String) throws(ImportError) -> Double {
        let at = c.i
        guard let n = Double(c.word()), n.isFinite, n >= 0 else { throw c.error("\(name) must be a number of 0 or more", at: at) }
        return n
    }

    /// `<(action=sel:, target=<Class 0xADDR>)[, (action=…, target=…)]>`.
    private static func targets(_ c: inout AddOnCursor) throws(ImportError) -> [RecognizerDescription.Target] {
        let open = c.i
        try c.expect("<", "'<' opening the targets like <(action=tap:, target=<UIView 0x…>)>")
        var out: [RecognizerDescription.Target] = []
        while true {
            c.skipWhite()
            if c.atEnd { throw c.error("the targets opened here are not closed (expected '>')", at: open) }
            if c.take(">") { return out }
            if !out.isEmpty {
                try c.expect(",", "',' or '>' after a target")
                c.skipWhite()
            }
            try c.expect("(", "'(' opening a target like (action=tap:, target=<UIView 0x…>)")
            c.skipWhite()
            try c.expect("action=", "'action='")
            let a = c.i
            while !c.atEnd, c.current != UInt8(ascii: ","), c.current != UInt8(ascii: ")"), !AddOnText.isWhite(c.current) { c.i += 1 }
            let action = c.string(a..<c.i)
            guard !action.isEmpty else { throw c.error("expected the action's selector after action=") }
            c.skipWhite()
            try c.expect(",", "',' and the target after the action")
            c.skipWhite()
            try c.expect("target=", "'target='")
            c.skipWhite()
            let target = try c.objectReference("the action's target")
            c.skipWhite()
            try c.expect(")", "')' closing the target")
            out.append(.init(action: action, target: target))
        }
    }

    /// `{ <description>, <description> }`.
    private static func recognizerSet(_ c: inout AddOnCursor, _ name: String, nesting: Int) throws(ImportError) -> [RecognizerDescription] {
        let open = c.i
        try c.expect("{", "'{' opening the \(name) set")
        var out: [RecognizerDescription] = []
        while true {
            c.skipWhite()
            if c.atEnd { throw c.error("the \(name) set opened here is not closed (expected '}')", at: open) }
            if c.take("}") { return out }
            if c.take(",") { continue }
            guard c.isAt("<") else { throw c.error("expected a recognizer description or '}' in the \(name) set, found \(c.found)") }
            var nested = try description(&c, nesting: nesting + 1)
            nested.nested = true
            out.append(nested)
        }
    }
}
