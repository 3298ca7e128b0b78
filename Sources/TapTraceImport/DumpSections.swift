/// The pieces of a pasted debugger session: the view hierarchy, and the add-ons pasted after it
/// (`_printHierarchy`, recognizer descriptions, `allTargets` answers), found by their content.
///
/// The rule, line by line (after the `#` lines):
///
/// 1. A debugger prompt (`(lldb) …`, `cy# …`) names what follows by its command:
///    `_printHierarchy` → view controllers; `allTargets`, `actionsForTarget`, `actions(forTarget`,
///    `allControlEvents` → control targets (the command is kept: the answer means nothing
///    without it); `gestureRecognizers` → recognizers; `recursiveDescription` → the hierarchy.
///    The first line after a named add-on prompt belongs to it whatever it looks like; after
///    that the lines decide as below. A prompt naming none of these is skipped (with a warning)
///    and the lines after it decide.
/// 2. Without a prompt, each line says what it is:
///    - `<Class 0xADDR>, state: …` after `|` / `+` depth marks: a view controller line.
///    - `<Class: 0xADDR [(name)]; state = …` (the first field is `state`; or the class name
///      holds `GestureRecognizer` or ends in `Gesture` and the first field is not a view's
///      `frame` / `baseClass`), also quoted (`"<…>",`, NSLog) or after list wrappers: a
///      recognizer. A recognizer at depth 0 looks like a view line; the first field tells
///      them apart, so it never becomes a view.
///    - `{(`, `)}`, `<__NSArrayM 0x…>(` followed by selector names, a bare integer
///      (`allControlEvents`), Cycript's `@[…]`, `[NSSet …]`, `#"<…>"`: control-target answers.
///    - List wrappers alone on a line (`(`, `Optional([`, `gestureRecognizers: Optional([`,
///      `{(`, `<NSArray 0x…>(`, `)`, `])`) belong to the add-on around them; an opening one at
///      the top takes the kind of the first line inside it (a recognizer; a target object
///      `<Class: 0x…>` or a selector name: control targets).
///    - Anything else is the hierarchy (whose own parser reports what does not read). Inside
///      the hierarchy a line whose first mark is `|` is a view without a look further: every
///      add-on starts with a line that has no `|` (a `_printHierarchy` with its root, unmarked
///      or `+`), so a 20,000-line dump is not scanned twice.
/// 3. Inside a recognizer or control-target add-on, brackets are counted: while a description
///    is open (`must-fail = {` … `}>`, a reformatted description over several lines, a list),
///    every line belongs to it, whatever it looks like. Only a prompt ends it early, and its
///    parser then reports the bracket left open.
///
/// An add-on needs a hierarchy before it (there is nothing to join it to otherwise): the input
/// is refused at its first line. Blank lines belong to the piece they are in (a
/// `_printHierarchy` may hold some).
struct DumpSections {
    enum Kind: Equatable {
        case controllers, recognizers, controlTargets

        var name: String {
            switch self {
            case .controllers: return "view controller tree (_printHierarchy)"
            case .recognizers: return "gesture recognizer descriptions"
            case .controlTargets: return "control target-action answers (allTargets, actionsForTarget:forControlEvent:)"
            }
        }
    }

    struct AddOn {
        var kind: Kind
        /// The prompt line that asked for it (`(lldb) po …`), when there is one.
        var command: Range<Int>?
        /// Whether that prompt named the kind (false: skipped, the lines decided).
        var commandNamedIt: Bool
        /// The lines after the prompt.
        var body: Range<Int>
    }

    /// Byte ranges of the input that hold the view hierarchy, in order.
    var hierarchy: [Range<Int>]
    /// The add-ons, in input order.
    var addOns: [AddOn] = []
    /// Offsets of prompt lines that named nothing and lay outside the hierarchy: skipped.
    var skippedPrompts: [Int] = []
    let src: SourceText

    init(_ src: SourceText) throws(ImportError) {
        self.src = src
        var splitter = Splitter(src)
        splitter.run()
        hierarchy = splitter.pieces.compactMap { $0.kind == nil ? $0.start..<$0.end : nil }
        skippedPrompts = splitter.skippedPrompts
        for p in splitter.pieces {
            guard let kind = p.kind else { continue }
            addOns.append(AddOn(kind: kind, command: p.command, commandNamedIt: p.commandNamedIt,
                                body: p.bodyStart..<max(p.bodyStart, p.end)))
        }
        if let first = splitter.pieces.first, let kind = first.kind {
            throw src.error(at: splitter.firstContent(from: first.start),
                            "this \(kind.name) comes before any view hierarchy: add-ons are joined to the views of a recursiveDescription dump by address, so paste `po [[UIWindow keyWindow] recursiveDescription]` (or `po view.recursiveDescription()`) first, then what the same debugger session printed")
        }
        if splitter.pieces.isEmpty { hierarchy = [src.contentStart..<src.count] }
    }

    /// Joins the add-ons to the views of `draft` by address (`AddOnJoin`).
    func join(into draft: inout ImportDraft) throws(ImportError) {
        var controllers: [ControllerLine] = []
        var recognizers: [RecognizerDescription] = []
        var answers: [ControlTargetAnswer] = []
        let skipped = (skippedPrompts + addOns.compactMap { $0.commandNamedIt ? nil : $0.command?.lowerBound }).sorted()
        for p in skipped { draft.warnings.add("debugger prompt lines skipped", "line \(src.line(of: p))") }
        for addOn in addOns {
            switch addOn.kind {
            case .controllers:
                controllers += try ControllerHierarchyParser.parse(src, addOn.body)
            case .recognizers:
                recognizers += try RecognizerDescriptionParser.parse(src, addOn.body)
            case .controlTargets:
                answers.append(try ControlTargetsParser.parse(src, command: addOn.commandNamedIt ? addOn.command : nil, body: addOn.body))
            }
        }
        if !addOns.contains(where: { $0.kind == .controllers }) {
            // R2, R3: without controllers a view's next responder is always its superview.
            draft.warnings.note("the dump has no view controllers, so the responder chain goes from each view straight to its superview, skipping them (R2, R3): paste `po [[[UIWindow keyWindow] rootViewController] _printHierarchy]` after the hierarchy to add them", .behaviour)
        }
        // Nothing to index the views for (a plain dump, the common case).
        guard !addOns.isEmpty else { return }
        // The draft moves into the join and back, so that its views are not copied on write.
        var join = AddOnJoin(draft: draft)
        draft = ImportDraft(src: src)
        join.addControllers(controllers)
        join.addRecognizers(recognizers)
        join.addControlTargets(answers)
        draft = join.draft
    }
}

/// Splits the lines into pieces (the rule of `DumpSections`).
private struct Splitter {
    struct Piece {
        /// nil: hierarchy.
        var kind: DumpSections.Kind?
        var start: Int
        var command: Range<Int>?
        var commandNamedIt = false
        var bodyStart: Int
        /// Offset just past the last line's text (before its line feed).
        var end: Int
    }

    enum PromptKind { case hierarchy, addOn(DumpSections.Kind), unknown }

    enum LineClass: Equatable {
        case blank, prompt, view, controller, recognizer, targets, opener, closer, emptyAnswer
        /// `<Class: 0xADDR>` alone: a view without fields in a hierarchy, a target in a set.
        case object
    }

    let src: SourceText
    private let bytes: [UInt8]
    var pieces: [Piece] = []
    /// Prompts that named nothing and were followed by another prompt or by nothing.
    var skippedPrompts: [Int] = []
    /// Open brackets of the current recognizer or control-target piece.
    private var depth = 0
    /// A prompt that named nothing, waiting for the lines after it.
    private var pendingPrompt: Range<Int>?
    /// The first content line after a prompt that named an add-on belongs to it.
    private var forceNext = false

    init(_ src: SourceText) {
        self.src = src
        bytes = src.bytes
    }

    func firstContent(from offset: Int) -> Int {
        var i = offset
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
        return i
    }

    mutating func run() {
        // Lines from the table `SourceText` already holds: the hierarchy's parser scans the
        // bytes of a 20,000-line dump once more, this pass should not.
        let starts = src.lineStarts
        var k = src.line(of: src.contentStart) - 1
        while k < starts.count, starts[k] < bytes.count {
            let lo = max(starts[k], src.contentStart)
            let hi = k + 1 < starts.count ? starts[k + 1] - 1 : bytes.count
            take(lo, hi)
            k += 1
        }
        if let p = pendingPrompt { skipPending(p) }
    }

    /// A prompt that named nothing and has no lines of its own: part of the hierarchy when it
    /// follows it (its parser warns), else skipped.
    private mutating func skipPending(_ p: Range<Int>) {
        if let c = current, c.kind == nil {
            pieces[pieces.count - 1].end = p.upperBound
        } else {
            skippedPrompts.append(p.lowerBound)
        }
        pendingPrompt = nil
    }

    private var current: Piece? { pieces.last }

    private mutating func take(_ lo: Int, _ hi: Int) {
        // Inside the hierarchy a line whose first mark is `|` is a view: no add-on starts with
        // one (a _printHierarchy starts with its root, unmarked or `+`). Most lines of a
        // dump end here, without their depth marks scanned twice.
        if !forceNext, pendingPrompt == nil, !pieces.isEmpty, pieces[pieces.count - 1].kind == nil {
            var i = lo
            while i < hi, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            if i < hi, bytes[i] == UInt8(ascii: "|") {
                pieces[pieces.count - 1].end = hi
                return
            }
        }
        let cls = classify(lo, hi)
        if let c = current, c.kind == .recognizers || c.kind == .controlTargets, depth > 0, cls != .prompt {
            pieces[pieces.count - 1].end = hi
            depth = max(0, depth + bracketDelta(lo, hi))
            return
        }
        switch cls {
        case .blank:
            if !pieces.isEmpty, pendingPrompt == nil { pieces[pieces.count - 1].end = hi }
            return
        case .prompt:
            if let p = pendingPrompt { skipPending(p) }
            depth = 0
            forceNext = false
            switch promptKind(lo, hi) {
            case .hierarchy:
                startPiece(nil, at: lo, hi: hi)
            case .addOn(let kind):
                pieces.append(Piece(kind: kind, start: lo, command: lo..<hi, commandNamedIt: true, bodyStart: min(hi + 1, bytes.count), end: hi))
                forceNext = true
            case .unknown:
                pendingPrompt = lo..<hi
            }
            return
        default:
            break
        }
        let kind: DumpSections.Kind?
        if forceNext, let c = current {
            kind = c.kind
        } else {
            kind = decide(cls, after: hi)
        }
        forceNext = false
        if let c = current, c.kind == kind, pendingPrompt == nil {
            pieces[pieces.count - 1].end = hi
        } else {
            let start = pendingPrompt?.lowerBound ?? lo
            if kind == nil {
                startPiece(nil, at: start, hi: hi)
            } else {
                pieces.append(Piece(kind: kind, start: start, command: pendingPrompt, bodyStart: lo, end: hi))
            }
            pendingPrompt = nil
            depth = 0
        }
        if kind == .recognizers || kind == .controlTargets {
            depth = max(0, depth + bracketDelta(lo, hi))
        }
    }

    private mutating func startPiece(_ kind: DumpSections.Kind?, at start: Int, hi: Int) {
        if kind == nil, let c = current, c.kind == nil {
            pieces[pieces.count - 1].end = hi
        } else {
            pieces.append(Piece(kind: kind, start: start, bodyStart: start, end: hi))
        }
    }

    /// The piece a content line starts or continues.
    private func decide(_ cls: LineClass, after hi: Int) -> DumpSections.Kind? {
        switch cls {
        case .controller: return .controllers
        case .recognizer: return .recognizers
        case .targets: return .controlTargets
        case .opener:
            // The first line inside the wrapper says what the list holds; else it belongs to
            // the add-on it follows.
            var lo = hi + 1
            scan: while lo < bytes.count {
                let next = src.lineEnd(from: lo)
                switch classify(lo, next) {
                case .blank, .opener: lo = next + 1
                case .recognizer: return .recognizers
                case .targets, .object: return .controlTargets
                default:
                    if looksLikeSelector(lo, next) { return .controlTargets }
                    break scan
                }
            }
            if let c = current?.kind, c != .controllers, pendingPrompt == nil { return c }
            return nil
        case .closer, .emptyAnswer:
            if let c = current?.kind, c != .controllers, pendingPrompt == nil { return c }
            return nil
        default:
            return nil
        }
    }

    // MARK: classifying a line

    private func promptKind(_ lo: Int, _ hi: Int) -> PromptKind {
        let command = src.string(lo..<hi)
        if command.contains("_printHierarchy") { return .addOn(.controllers) }
        if command.contains("actionsForTarget") || command.contains("actions(forTarget")
            || command.contains("allTargets") || command.contains("allControlEvents") {
            return .addOn(.controlTargets)
        }
        if command.contains("gestureRecognizers") { return .addOn(.recognizers) }
        if command.contains("recursiveDescription") { return .hierarchy }
        return .unknown
    }

    private func isSpace(_ i: Int, _ hi: Int) -> Int {
        if bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D { return 1 }
        if bytes[i] == 0xC2, i + 1 < hi, bytes[i + 1] == 0xA0 { return 2 }
        return 0
    }

    private func skipSpaces(_ from: Int, _ hi: Int) -> Int {
        var i = from
        while i < hi { let n = isSpace(i, hi); if n == 0 { break }; i += n }
        return i
    }

    private func startsWith(_ s: StaticString, at i: Int, _ hi: Int) -> Bool {
        guard i + s.utf8CodeUnitCount <= hi else { return false }
        return s.withUTF8Buffer { p in
            for k in 0..<p.count where bytes[i + k] != p[k] { return false }
            return true
        }
    }

    func classify(_ lo: Int, _ hi: Int) -> LineClass {
        let i = skipSpaces(lo, hi)
        if i == hi { return .blank }
        if startsWith("(lldb)", at: i, hi) || startsWith("cy#", at: i, hi) { return .prompt }
        // Depth marks (recursiveDescription's `|`, _printHierarchy's `|` and `+`).
        var j = i
        var marks = false
        while j < hi {
            let b = bytes[j]
            if b == 0x20 || b == 0x09 || b == 0x0D { j += 1; continue }
            if b == UInt8(ascii: "|") || b == UInt8(ascii: "+") { marks = true; j += 1; continue }
            if b == 0xC2, j + 1 < hi, bytes[j + 1] == 0xA0 { j += 2; continue }
            break
        }
        if j < hi, bytes[j] == UInt8(ascii: "`") { j += 1 }
        if j == hi { return .blank }
        if bytes[j] == UInt8(ascii: "<") { return description(j, hi) }
        if marks { return .view }
        return wrapped(i, hi)
    }

    /// A line whose text starts with `<` at `j`.
    private func description(_ j: Int, _ hi: Int) -> LineClass {
        var k = j + 1
        var angle = 0
        var classEnd: Int?
        while k < hi {
            let b = bytes[k]
            if b == UInt8(ascii: "<") { angle += 1 } else if b == UInt8(ascii: ">") {
                if angle == 0 { break }
                angle -= 1
            } else if angle == 0 {
                if classEnd == nil, b == UInt8(ascii: ":") || b == 0x20 || b == 0x09 { classEnd = k }
                if b == UInt8(ascii: ";") { break }
            }
            k += 1
        }
        // Bytes compared in place, no strings made: every line of a hierarchy comes here.
        let className = (j + 1)..<(classEnd ?? k)
        if k == hi { return isRecognizerClass(className) ? .recognizer : .view }
        if bytes[k] == UInt8(ascii: ">") {
            if className.count == 3, startsWith("nil", at: className.lowerBound, hi) { return .emptyAnswer }
            let after = skipSpaces(k + 1, hi)
            if startsWith(", state:", at: after, hi) { return .controller }
            if after < hi, bytes[after] == UInt8(ascii: "("), skipSpaces(after + 1, hi) == hi { return .opener }
            return after == hi ? .object : .view
        }
        // The first field.
        let f = skipSpaces(k + 1, hi)
        var e = f
        while e < hi, AddOnCursor.isWordByte(bytes[e]) { e += 1 }
        func field(is name: StaticString) -> Bool { e - f == name.utf8CodeUnitCount && startsWith(name, at: f, e) }
        if field(is: "frame") || field(is: "baseClass") { return .view }
        if field(is: "state") { return .recognizer }
        return isRecognizerClass(className) ? .recognizer : .view
    }

    private func isRecognizerClass(_ r: Range<Int>) -> Bool {
        Self.isRecognizerClass(src.string(r))
    }

    static func isRecognizerClass(_ name: String) -> Bool {
        name.contains("GestureRecognizer") || name.hasSuffix("Gesture")
    }

    /// A line that starts with neither `<` nor depth marks: answers and list wrappers.
    private func wrapped(_ i: Int, _ hi: Int) -> LineClass {
        if bytes[i] == UInt8(ascii: "\""), i + 1 < hi, bytes[i + 1] == UInt8(ascii: "<") {
            return description(i + 1, hi) == .recognizer ? .recognizer : .targets
        }
        if startsWith("#\"<", at: i, hi) || startsWith("@[", at: i, hi) || startsWith("[NSSet", at: i, hi) { return .targets }
        if isInteger(i, hi) || isTypedResult(i, hi) { return .targets }
        let text = src.string(i..<hi).trimmingSpaces
        if ["nil", "(null)", "Optional([])", "[]", "()", "{()}"].contains(text) { return .emptyAnswer }
        // Wrappers: a label (`gestureRecognizers:`), `Optional(`, `(`, `[`, `{`, `@[`.
        var j = i
        var skipped = false
        var labelled = false
        while j < hi {
            let s = skipSpaces(j, hi)
            if s != j { j = s; continue }
            if startsWith("Optional(", at: j, hi) { j += 9; skipped = true; continue }
            let b = bytes[j]
            if b == UInt8(ascii: "(") || b == UInt8(ascii: "[") || b == UInt8(ascii: "{") || b == UInt8(ascii: "@") {
                j += 1; skipped = true; continue
            }
            if !skipped, !labelled {
                var e = j
                while e < hi, AddOnCursor.isWordByte(bytes[e]) { e += 1 }
                if e > j, e < hi, bytes[e] == UInt8(ascii: ":"), e + 1 == hi || isSpace(e + 1, hi) > 0 {
                    j = e + 1
                    labelled = true
                    continue
                }
            }
            break
        }
        if labelled, !skipped, j < hi, bytes[j] == UInt8(ascii: "<") {
            return description(j, hi) == .recognizer ? .recognizer : .view
        }
        if skipped {
            if j == hi { return .opener }
            if bytes[j] == UInt8(ascii: "<") { return description(j, hi) == .recognizer ? .recognizer : .view }
            if bytes[j] == UInt8(ascii: "\""), j + 1 < hi, bytes[j + 1] == UInt8(ascii: "<") {
                return description(j + 1, hi) == .recognizer ? .recognizer : .targets
            }
            return .view
        }
        // Closers: only `)`, `]`, `}`, `>`, `,` and quotes.
        var k = i
        while k < hi {
            let b = bytes[k]
            guard b == UInt8(ascii: ")") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}") || b == UInt8(ascii: ">")
                || b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || isSpace(k, hi) > 0 else { return .view }
            k += 1
        }
        return .closer
    }

    private func isInteger(_ i: Int, _ hi: Int) -> Bool {
        let e = skipSpacesBack(i, hi)
        guard e > i else { return false }
        return bytes[i..<e].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// lldb's `p` answer: `(UIControlEvents) $0 = 64`.
    private func isTypedResult(_ i: Int, _ hi: Int) -> Bool {
        guard bytes[i] == UInt8(ascii: "(") else { return false }
        let text = src.string(i..<hi)
        return text.contains(") $") && text.contains(" = ")
    }

    private func skipSpacesBack(_ lo: Int, _ hi: Int) -> Int {
        var e = hi
        while e > lo, bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09 || bytes[e - 1] == 0x0D { e -= 1 }
        return e
    }

    /// `_handleTap:` or `"save:",`: an element of an `actionsForTarget:` answer.
    private func looksLikeSelector(_ lo: Int, _ hi: Int) -> Bool {
        var text = Substring(src.string(lo..<hi).trimmingSpaces)
        if text.hasSuffix(",") { text = text.dropLast() }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == ":" || $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    /// Opened minus closed brackets on a line.
    private func bracketDelta(_ lo: Int, _ hi: Int) -> Int {
        var d = 0
        for k in lo..<hi {
            switch bytes[k] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "<"): d += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ">"): d -= 1
            default: break
            }
        }
        return d
    }
}
