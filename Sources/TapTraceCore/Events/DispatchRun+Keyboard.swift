/// The hardware keyboard (KC1–KC5): at a key-down, the key-command search and, by knob
/// `keyboardPipeline`, what runs before any press is delivered; and the text-input step.
extension DispatchRun {
    /// What the text-input step does with a key (KC2).
    enum TextInputOutcome: Equatable {
        /// Taken; `insertText:` with this text, `deleteBackward`, or no call.
        case insert(String)
        case deleteBackward
        case takenWithoutCall
        /// Not taken, for a reason word (`modifier`, `escape`, `function`, `modifierKey`, `notText`).
        case notTaken(String)

        var isTaken: Bool { if case .notTaken = self { return false } else { return true } }
    }

    static let editingKeys: Set<String> = [
        "keyboardTab", "keyboardLeftArrow", "keyboardRightArrow", "keyboardUpArrow", "keyboardDownArrow",
        "keyboardHome", "keyboardEnd", "keyboardPageUp", "keyboardPageDown", "keyboardDeleteForward",
    ]
    static let modifierKeys: Set<String> = [
        "keyboardLeftControl", "keyboardLeftShift", "keyboardLeftAlt", "keyboardLeftGUI",
        "keyboardRightControl", "keyboardRightShift", "keyboardRightAlt", "keyboardRightGUI", "keyboardCapsLock",
    ]

    /// KC2's rules, first that applies, for a key typed into a responder of `base`.
    static func textInput(_ key: KeyInput, base: ViewBase?) -> TextInputOutcome {
        if key.modifierFlags.contains(.command) || key.modifierFlags.contains(.control) { return .notTaken("modifier") }  // 1
        switch key.keyCode {
        case "keyboardDeleteOrBackspace": return .deleteBackward                                                        // 2
        case "keyboardReturnOrEnter", "keypadEnter": return base == .UITextView ? .insert("\n") : .takenWithoutCall       // 3
        case _ where editingKeys.contains(key.keyCode): return .takenWithoutCall                                         // 4
        case "keyboardEscape": return .notTaken("escape")                                                                // 5
        case _ where modifierKeys.contains(key.keyCode): return .notTaken("modifierKey")
        case _ where isFunctionKey(key.keyCode): return .notTaken("function")
        default: break
        }
        if !key.characters.isEmpty, !key.characters.hasPrefix("UIKeyInput") { return .insert(key.characters) }          // 6
        return .notTaken("notText")                                                                                     // 7
    }

    private static func isFunctionKey(_ code: String) -> Bool {
        guard code.hasPrefix("keyboardF"), let n = Int(code.dropFirst("keyboardF".count)) else { return false }
        return (1...24).contains(n)
    }

    private func textInputOutcome(_ p: Int) -> TextInputOutcome? {
        guard let key = nonTouch.presses[p].key, let r = nonTouch.presses[p].responder, index.hasTextInput(r) else { return nil }
        var base: ViewBase?
        if case .view(let v) = r { base = index.bases[v] }
        return Self.textInput(key, base: base)
    }

    /// KC1 (a): "text input would take the key".
    private func textInputWouldTake(_ p: Int) -> Bool { textInputOutcome(p)?.isTaken ?? false }

    /// KC2 as a step: the `[textInput]` marker, then the text-input call if any. Returns whether
    /// the key was taken. Run only when the press responder has text input.
    mutating func textInputStep(_ p: Int) -> Bool {
        guard let outcome = textInputOutcome(p), let r = nonTouch.presses[p].responder, let key = nonTouch.presses[p].key else {
            return false
        }
        let who = index.ref(r).id, keyText = key.displayText
        switch outcome {
        case .notTaken(let reason):
            trace.marker(.textInput, index.object(r), .init(.taken, .bool(false)), .init(.reason, trace.text(reason)),
                         note: "\(who) does not take \(keyText) (\(reason); KC2)")
            return false
        case .insert(let text):
            trace.marker(.textInput, index.object(r), .init(.taken, .bool(true)), note: "\(who) takes \(keyText) (KC2)")
            trace.call(index.object(r), .insertText, .init(.text, trace.text(text)))
        case .deleteBackward:
            trace.marker(.textInput, index.object(r), .init(.taken, .bool(true)), note: "\(who) takes \(keyText) (KC2)")
            trace.call(index.object(r), .deleteBackward)
        case .takenWithoutCall:
            trace.marker(.textInput, index.object(r), .init(.taken, .bool(true)),
                         note: "\(who) takes \(keyText) (editing is not modelled; KC2)")
        }
        return true
    }

    /// KC3: whether a key command matches a key-down: the input equals the key's characters
    /// ignoring modifiers, and shift, control, alternate and command are the same (alphaShift and
    /// numericPad count only when the command lists them).
    static func keyCommandMatches(_ command: KeyCommandSpec, _ key: KeyInput) -> Bool {
        guard command.input == key.charactersIgnoringModifiers else { return false }
        for flag in [KeyModifierFlag.shift, .control, .alternate, .command]
        where command.modifierFlags.contains(flag) != key.modifierFlags.contains(flag) { return false }
        for flag in [KeyModifierFlag.alphaShift, .numericPad]
        where command.modifierFlags.contains(flag) && !key.modifierFlags.contains(flag) { return false }
        return true
    }

    /// N4 step 3 for a keyboard press's key-down (KC1, KC5 (1)).
    mutating func keyDown(_ p: Int) {
        guard let key = nonTouch.presses[p].key, let r = nonTouch.presses[p].responder else { return }
        let keyText = key.displayText
        trace.marker(.keyboard, index.object(r), .init(.stage, .word("keyDown")), note: "key-down \(keyText) (KC5)")
        // KC3: every command of the chain, in chain order, then declaration order.
        let chain = nonTouch.presses[p].chain
        var matches: [(id: String, command: KeyCommandSpec)] = []
        for responder in chain {
            for (k, command) in (index.traits(responder).keyCommands ?? []).enumerated()
            where Self.keyCommandMatches(command, key) {
                matches.append((ResponderTraits.keyCommandID(command, responder: index.ref(responder).id, index: k), command))
            }
        }
        let match = knobs.keyCommandPrecedence == .nearest ? matches.first : matches.last
        let shadowed = matches.filter { $0.id != match?.id }.map(\.id)
        let yields = match.map { !($0.command.wantsPriorityOverSystemBehavior ?? false) && textInputWouldTake(p) } ?? false
        var note: NoteText = "searched \(chainIDs(chain), joinedBy: " "); "
        if let match {
            note.append("match \(match.id)")
            if !shadowed.isEmpty {
                note.append("; shadowed ")
                note.append(shadowed, joinedBy: ", ")
            }
            if yields, knobs.keyboardPipeline == .atApplication { note.append("; yields to text input, which would take the key (KC1)") }
        } else {
            note.append("no match")
        }
        let searched = TraceRecorder.Argument(.searched, trace.texts(chainIDs(chain)))
        trace.marker(.keyCommand, index.object(r), searched, .init(.match, match.map { trace.text($0.id) } ?? .null),
                     .init(.shadowed, trace.texts(shadowed)), note: note)

        switch knobs.keyboardPipeline {
        case .atApplication:
            if let match, !yields, runKeyCommand(p, match.id, match.command) { nonTouch.presses[p].consumed = true }
        case .beforeResponders:
            let priority = match.map { $0.command.wantsPriorityOverSystemBehavior ?? false } ?? false
            if let match, priority, runKeyCommand(p, match.id, match.command) {               // (1)
                nonTouch.presses[p].consumed = true
                return
            }
            if index.hasTextInput(r), textInputStep(p) {                                      // (2)
                nonTouch.presses[p].consumed = true
                nonTouch.presses[p].textInput = r
                return
            }
            if let match, !priority, runKeyCommand(p, match.id, match.command) {              // (3)
                nonTouch.presses[p].consumed = true
            }
        }
    }

    /// KC4: the action goes to the first object on the chain from the press responder that
    /// implements it (A4's test), with the key command as sender. False when nobody does.
    private mutating func runKeyCommand(_ p: Int, _ id: String, _ command: KeyCommandSpec) -> Bool {
        let chain = nonTouch.presses[p].chain
        var target: Responder?
        for (k, current) in chain.enumerated() {
            let answer = index.implements(current, command.action) && index.canPerformOverride(current, command.action) != false
            let actionArg = TraceRecorder.Argument(.action, trace.text(command.action))
            let who = index.ref(current).id
            var note: NoteText = k == 0
                ? "start = \(who) (the press responder; KC4); \(who) implements \(command.action)? \(answer ? "YES" : "NO")"
                : "\(who) implements \(command.action)? \(answer ? "YES" : "NO")"
            // KC5 allows no marker of its own for a skipped command: the last step says it.
            if !answer, k == chain.count - 1 { note.append("; nobody implements it: \(id) is skipped (KC4)") }
            trace.marker(.chainWalk, index.object(current), actionArg, .init(.implements, .bool(answer)), note: note)
            if answer { target = current; break }
        }
        guard let target else { return false }
        let n = SelectorNames.argumentCount(command.action)
        trace.call(index.object(target), action: command.action, n >= 1 ? .init(.sender, trace.text(id)) : nil,
                   n >= 2 ? eventArg(nonTouch.presses[p].event) : nil)
        actions.append(ActionRecord(t: now, action: command.action, sender: id, target: index.ref(target).id, via: .keyCommand))
        nonTouch.presses[p].keyCommand = id
        return true
    }
}
