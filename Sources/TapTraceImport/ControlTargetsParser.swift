import TapTraceCore

/// One question put to a UIControl in the debugger and its answer:
///
///     (lldb) po [(UIButton *)0x7f… allTargets]          {( <Target: 0x…> … )}
///     (lldb) po [(UIButton *)0x7f… allControlEvents]    64
///     (lldb) po [(UIButton *)0x7f… actionsForTarget:(id)0x7f… forControlEvent:0]
///                                                       <__NSArrayM 0x…>( save: )
///     cy# [#0x17a9cad0 allTargets]                      [NSSet setWithArray:@[#"<Target: 0x…>"]]]
///     cy# [#0x17a9cad0 actionsForTarget:#0x174eb8b0 forControlEvent:64]    @["save"]
///
/// Swift's `button.allTargets`, `button.allControlEvents` and
/// `button.actions(forTarget: t, forControlEvent: .touchUpInside)` read the same way. The
/// answers say nothing of the control they describe: the question names it (`receiver`).
struct ControlTargetAnswer {
    enum Receiver: Equatable {
        /// The control is named by its address (`(UIButton *)0x7f…`, `#0x7f…`): it joins.
        case address(String)
        /// A variable or expression (`$myButton`, `self.saveButton`): it cannot be joined.
        case named(String)
        /// No question was pasted.
        case none
    }

    enum TargetArgument: Equatable {
        case address(String)
        /// An expression asked before (`[[#0x… allTargets] allObjects][0]`), whitespace removed.
        case expression(String)
        /// `nil` / `[NSNull null]`: the nil-targeted actions (A2).
        case null
    }

    enum EventsArgument: Equatable {
        case mask(UInt32)
        /// `[control allControlEvents]`: the mask the control answered, if it was asked.
        case allControlEvents
        case unreadable(String)
    }

    enum Question: Equatable {
        case allTargets
        case allControlEvents
        case actions(target: TargetArgument, events: EventsArgument)
        case unknown
    }

    /// Where the answer starts (for warnings), and the prompt line when there is one.
    var offset: Int
    var commandLine: Int?
    /// The command's expression, whitespace removed (what a later question may repeat).
    var expression: String?
    var receiver: Receiver
    var question: Question
    var objects: [ObjectReference] = []
    var integer: UInt32?
    var selectors: [String] = []
}

enum ControlTargetsParser {
    /// The question in the prompt line `command` (nil: none was pasted) and the answer in `body`.
    static func parse(_ src: SourceText, command: Range<Int>?, body: Range<Int>) throws(ImportError) -> ControlTargetAnswer {
        var answer = ControlTargetAnswer(offset: body.lowerBound, commandLine: nil, expression: nil, receiver: .none, question: .unknown)
        if let command {
            answer.commandLine = src.line(of: command.lowerBound)
            let expression = Self.expression(src.string(command))
            answer.expression = String(expression.filter { !$0.isWhitespace })
            (answer.receiver, answer.question) = question(expression)
        }
        try readAnswer(src, body, into: &answer)
        return answer
    }

    // MARK: the question

    /// The expression of a command: without the prompt, the verb (`po`, `p`, `expr -O --`) and
    /// Cycript's `.toString()`.
    static func expression(_ command: String) -> Substring {
        var s = Substring(command).drop { $0 == " " || $0 == "\t" }
        if s.hasPrefix("(lldb)") { s = s.dropFirst(6) } else if s.hasPrefix("cy#") { s = s.dropFirst(3) }
        var words = s.split(separator: " ", omittingEmptySubsequences: true)[...]
        if let verb = words.first, ["po", "p", "print", "e", "expr", "expression", "call"].contains(verb) {
            words = words.dropFirst()
            while let w = words.first, w.hasPrefix("-") {
                words = words.dropFirst()
                if w == "--" { break }
                if w == "-l", !words.isEmpty { words = words.dropFirst() }
            }
        }
        guard let first = words.first else { return "" }
        var e = s[first.startIndex...]
        while let last = e.last, last == " " || last == "\t" || last == "\r" || last == ";" { e = e.dropLast() }
        if e.hasSuffix(".toString()") { e = e.dropLast(11) }
        return e
    }

    static func question(_ e: Substring) -> (ControlTargetAnswer.Receiver, ControlTargetAnswer.Question) {
        let text = Array(e.utf8)
        func string(_ r: Range<Int>) -> String { String(decoding: text[r], as: UTF8.self).trimmingSpaces }
        if let k = find("actionsForTarget:", in: text) {
            // [R actionsForTarget:T forControlEvent:M]
            let receiver = objcReceiver(text, before: k)
            let argStart = k + "actionsForTarget:".utf8.count
            let eventsKey = find("forControlEvent:", in: text, from: argStart)
            let target = string(argStart..<(eventsKey ?? text.count))
            var events = ""
            if let m = eventsKey {
                let from = m + "forControlEvent:".utf8.count
                events = string(from..<closing(text, from: from))
            }
            return (receiver, .actions(target: targetArgument(target), events: eventsArgument(events)))
        }
        if let k = find(".actions(forTarget:", in: text) {
            // R.actions(forTarget: T, forControlEvent: M)
            let receiver = swiftReceiver(text, before: k)
            let argStart = k + ".actions(forTarget:".utf8.count
            let eventsKey = find("forControlEvent:", in: text, from: argStart)
            var targetEnd = eventsKey ?? text.count
            while targetEnd > argStart, text[targetEnd - 1] == UInt8(ascii: " ") || text[targetEnd - 1] == UInt8(ascii: ",") { targetEnd -= 1 }
            var events = ""
            if let m = eventsKey {
                let from = m + "forControlEvent:".utf8.count
                events = string(from..<closing(text, from: from))
            }
            return (receiver, .actions(target: targetArgument(string(argStart..<targetEnd)), events: eventsArgument(events)))
        }
        for (word, q) in [("allControlEvents", ControlTargetAnswer.Question.allControlEvents), ("allTargets", .allTargets)] {
            guard let k = find(word, in: text) else { continue }
            if k > 0, text[k - 1] == UInt8(ascii: ".") { return (swiftReceiver(text, before: k - 1), q) }
            return (objcReceiver(text, before: k), q)
        }
        return (.none, .unknown)
    }

    private static func find(_ word: String, in text: [UInt8], from: Int = 0) -> Int? {
        let p = Array(word.utf8)
        guard text.count >= p.count, from <= text.count - p.count else { return nil }
        for k in from...(text.count - p.count) where text[k] == p[0] && Array(text[k..<(k + p.count)]) == p { return k }
        return nil
    }

    /// The index of the bracket that closes the text from `from` (or the end): the message's
    /// `]` or the call's `)`.
    private static func closing(_ text: [UInt8], from: Int) -> Int {
        var depth = 0
        for k in from..<text.count {
            switch text[k] {
            case UInt8(ascii: "["), UInt8(ascii: "("): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: ")"):
                if depth == 0 { return k }
                depth -= 1
            default: break
            }
        }
        return text.count
    }

    /// `[R selector…]`: R is the text after the `[` that opens the message holding `k`.
    private static func objcReceiver(_ text: [UInt8], before k: Int) -> ControlTargetAnswer.Receiver {
        var depth = 0
        var j = k - 1
        while j >= 0 {
            switch text[j] {
            case UInt8(ascii: "]"), UInt8(ascii: ")"): depth += 1
            case UInt8(ascii: "("): depth -= 1
            case UInt8(ascii: "["):
                if depth == 0 { return receiver(String(decoding: text[(j + 1)..<k], as: UTF8.self)) }
                depth -= 1
            default: break
            }
            j -= 1
        }
        return receiver(String(decoding: text[0..<k], as: UTF8.self))
    }

    /// `R.allTargets`: R runs back from the `.` to a space or an unbalanced bracket.
    private static func swiftReceiver(_ text: [UInt8], before dot: Int) -> ControlTargetAnswer.Receiver {
        var depth = 0
        var j = dot - 1
        while j >= 0 {
            let b = text[j]
            if b == UInt8(ascii: ")") || b == UInt8(ascii: "]") { depth += 1 } else if b == UInt8(ascii: "(") || b == UInt8(ascii: "[") {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0, b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "=") {
                break
            }
            j -= 1
        }
        return receiver(String(decoding: text[(j + 1)..<dot], as: UTF8.self))
    }

    /// An address, possibly cast (`(UIButton *)0x7f…`, `(id)0x…`), in parentheses, Cycript's
    /// `#0x…`, or Swift's `unsafeBitCast(0x…, to: UIButton.self)`.
    static func address(in expression: String) -> String? {
        var s = Substring(expression.trimmingSpaces)
        while true {
            if s.hasPrefix("unsafeBitCast("), let comma = s.firstIndex(of: ",") {
                s = s[s.index(s.startIndex, offsetBy: 14)..<comma]
                continue
            }
            if s.first == "(", let close = matchingParenthesis(s) {
                let inside = s[s.index(after: s.startIndex)..<close]
                if close == s.index(before: s.endIndex) {
                    s = inside  // (expr)
                } else if inside.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == " " || $0 == "*" || $0 == "." }) {
                    s = s[s.index(after: close)...]  // a cast
                } else {
                    return nil
                }
                s = Substring(String(s).trimmingSpaces)
                continue
            }
            break
        }
        guard AddressKey.of(String(s)) != nil else { return nil }
        return s.hasPrefix("#") ? String(s.dropFirst()) : String(s)
    }

    /// The `)` that closes the `(` `s` starts with.
    private static func matchingParenthesis(_ s: Substring) -> Substring.Index? {
        var depth = 0
        for i in s.indices {
            if s[i] == "(" { depth += 1 } else if s[i] == ")" {
                depth -= 1
                if depth == 0 { return i }
            }
        }
        return nil
    }

    private static func receiver(_ text: String) -> ControlTargetAnswer.Receiver {
        let t = text.trimmingSpaces
        if let a = address(in: t) { return .address(a) }
        return t.isEmpty ? .none : .named(t)
    }

    private static func targetArgument(_ text: String) -> ControlTargetAnswer.TargetArgument {
        if let a = address(in: text) { return .address(a) }
        let t = text.filter { !$0.isWhitespace }
        if t == "nil" || t == "NULL" || t.contains("NSNull") { return .null }
        return .expression(t)
    }

    private static func eventsArgument(_ text: String) -> ControlTargetAnswer.EventsArgument {
        let t = text.trimmingSpaces
        if let n = integer(t) { return .mask(n) }
        if t.contains("allControlEvents") { return .allControlEvents }
        // Names: `UIControlEventTouchUpInside`, `.touchUpInside`, `UIControl.Event.valueChanged`,
        // joined by `|` or in `[…]`.
        var mask: UInt32 = 0
        let parts = t.split { $0 == "|" || $0 == "," || $0 == "[" || $0 == "]" }.map { String($0).trimmingSpaces }
        for part in parts where !part.isEmpty {
            var name = Substring(part)
            if name.hasPrefix("UIControlEvent") { name = name.dropFirst(14) }
            if let dot = name.lastIndex(of: ".") { name = name[name.index(after: dot)...] }
            guard let first = name.first else { return .unreadable(t) }
            let raw = first.lowercased() + name.dropFirst()
            guard let event = ControlEvent(rawValue: raw) else { return .unreadable(t) }
            mask |= event.bit
        }
        return mask == 0 ? .unreadable(t) : .mask(mask)
    }

    static func integer(_ t: String) -> UInt32? {
        if t.hasPrefix("0x") || t.hasPrefix("0X") { return UInt32(t.dropFirst(2), radix: 16) }
        return UInt32(t)
    }

    // MARK: the answer

    private static func readAnswer(_ src: SourceText, _ body: Range<Int>, into answer: inout ControlTargetAnswer) throws(ImportError) {
        let text = try AddOnText(src, body, unquote: true)
        var c = AddOnCursor(text, src)
        c.skipWhite()
        if c.atEnd { return }
        answer.offset = c.offset
        let open = c.i
        if c.take("nil") || c.take("(null)") || c.take("<nil>") || c.take("Optional([])") {
            // No targets or actions.
        } else if c.take("{(") {
            answer.objects = try objects(&c, until: ")}", "the set opened by '{('", openedAt: open)
        } else if c.take("[NSSet setWithArray:@[") {
            answer.objects = try objects(&c, until: "]", "Cycript's NSSet array", openedAt: open)
            _ = c.take("]")
        } else if c.take("@[") {
            answer.selectors = try selectors(&c, until: "]", "Cycript's array", openedAt: open)
        } else if c.isAt("#") || c.isAt("<") {
            if c.isAt("<"), try selectorArrayHeader(&c) {
                answer.selectors = try selectors(&c, until: ")", "the array opened here", openedAt: open)
            } else {
                _ = c.take("#")
                answer.objects = [try c.objectReference("a target object")]
            }
        } else if c.isAt("(") {
            // `(UIControlEvents) $0 = 64`, or an NSArray described without its header.
            c.i += 1
            var k = c.i
            while let b = c.peek(k - c.i), b != UInt8(ascii: ")"), b != 0x0A { k += 1 }
            let header = c.string(c.i..<k)
            if c.peek(k - c.i) == UInt8(ascii: ")"), !header.contains(":"), c.string(k..<min(text.count, k + 4)).hasPrefix(") $") {
                c.i = k + 1
                while !c.atEnd, c.current != UInt8(ascii: "=") { c.i += 1 }
                try c.expect("=", "'=' and the value")
                c.skipSpaces()
                try integerAnswer(&c, into: &answer)
            } else {
                c.i = open + 1
                answer.selectors = try selectors(&c, until: ")", "the array opened by '('", openedAt: open)
            }
        } else {
            try integerAnswer(&c, into: &answer)
        }
        // Cycript prints one `]` too many after an NSSet; nothing else may follow.
        while true {
            c.skipWhite()
            if !c.take("]") { break }
        }
        guard c.atEnd else { throw c.error("unexpected \(c.found) after the answer") }
    }

    private static func integerAnswer(_ c: inout AddOnCursor, into answer: inout ControlTargetAnswer) throws(ImportError) {
        let at = c.i
        let w = c.word()
        if let n = integer(w) {
            answer.integer = n
            return
        }
        if case .mask(let m) = eventsArgument(w) {
            answer.integer = m
            return
        }
        throw c.error("expected an answer: a set of targets {( … )}, an array of actions, or the number allControlEvents prints", at: at)
    }

    /// `<__NSArrayM 0x…>(`: moves past it when it is there.
    private static func selectorArrayHeader(_ c: inout AddOnCursor) throws(ImportError) -> Bool {
        let start = c.i
        c.i += 1
        let w = c.word()
        guard w.contains("Array") else { c.i = start; return false }
        _ = c.take(":")
        c.skipSpaces()
        _ = c.word()
        c.skipSpaces()
        guard c.take(">") else { c.i = start; return false }
        c.skipSpaces()
        try c.expect("(", "'(' opening the array")
        return true
    }

    private static func objects(_ c: inout AddOnCursor, until closer: String, _ what: String, openedAt open: Int) throws(ImportError) -> [ObjectReference] {
        var out: [ObjectReference] = []
        while true {
            c.skipWhite()
            if c.atEnd { throw c.error("\(what) is not closed (expected '\(closer)')", at: open) }
            if c.take(closer) { return out }
            if c.take(",") { continue }
            _ = c.take("#")
            guard c.isAt("<") else { throw c.error("expected a target object like <MyTarget: 0x…> or '\(closer)', found \(c.found)") }
            out.append(try c.objectReference("a target object"))
        }
    }

    private static func selectors(_ c: inout AddOnCursor, until closer: String, _ what: String, openedAt open: Int) throws(ImportError) -> [String] {
        var out: [String] = []
        while true {
            c.skipWhite()
            if c.atEnd { throw c.error("\(what) is not closed (expected '\(closer)')", at: open) }
            if c.take(closer) { return out }
            if c.take(",") { continue }
            let at = c.i
            while !c.atEnd, !AddOnText.isWhite(c.current), c.current != UInt8(ascii: ","),
                  c.current != UInt8(ascii: ")"), c.current != UInt8(ascii: "]") {
                c.i += 1
            }
            let s = c.string(at..<c.i)
            guard isSelector(s) else { throw c.error("expected an action's selector name like save: or '\(closer)', found '\(s.isEmpty ? c.found : s)'", at: at) }
            out.append(s)
        }
    }

    /// Letters, digits, `_` and `:`, not starting with a digit or `:` (what
    /// `SceneValidator` accepts for ASCII selectors).
    static func isSelector(_ s: String) -> Bool {
        guard let first = s.utf8.first, first != UInt8(ascii: ":"), !(first >= 0x30 && first <= 0x39) else { return false }
        return s.utf8.allSatisfy { b in
            ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_") || b == UInt8(ascii: ":")
        }
    }
}
