import TapTraceCore
import TapTraceJSON

// Reading the values of non-touch events (contract §2.1) that scenes and touches documents
// share: enumerated words (press types, modifier flags, subtypes), responder traits and the
// press, motion and remote-control overrides.

extension DocumentReader {
    /// One of an enum's raw values; anything else is reported with the closest and the list.
    /// `allowed` narrows the values accepted (default: all of them).
    func word<E: CaseIterable & RawRepresentable>(_ node: Int, at pointer: () -> String, as: E.Type,
                                                  allowed: [E]? = nil) -> E? where E.RawValue == String {
        guard let s = string(node, at: pointer, nonEmpty: false) else { return nil }
        let choices = allowed ?? Array(E.allCases)
        if let value = E(rawValue: s), choices.contains(where: { $0.rawValue == s }) { return value }
        let names = choices.map(\.rawValue)
        var message = "must be one of \(names.joined(separator: ", ")), not \"\(s)\""
        if let near = DocumentReader.closest(to: s, in: names) { message += " (did you mean \"\(near)\"?)" }
        report(pointer, message)
        return nil
    }

    /// A list of an enum's raw values, each once; nil when the node is not such a list.
    func words<E: CaseIterable & RawRepresentable & Hashable>(_ node: Int, at pointer: () -> String, as: E.Type,
                                                              allowed: [E]? = nil) -> [E]? where E.RawValue == String {
        guard let elements = array(node, at: pointer) else { return nil }
        var out: [E] = []
        var ok = true
        for (i, e) in elements.enumerated() {
            guard let w = word(e, at: { pointer().pointer(i) }, as: E.self, allowed: allowed) else { ok = false; continue }
            if out.contains(w) {
                report({ pointer().pointer(i) }, "\"\(w.rawValue)\" appears twice")
                ok = false
            } else {
                out.append(w)
            }
        }
        return ok ? out : nil
    }

    /// `UIKeyModifierFlags` by their Swift names, each once.
    func modifierFlags(_ node: Int, at pointer: () -> String) -> [KeyModifierFlag]? {
        words(node, at: pointer, as: KeyModifierFlag.self)
    }

    /// `"super"` or `"handle"`.
    func handling(_ node: Int, at pointer: () -> String) -> TouchHandling? {
        guard let word = string(node, at: pointer) else { return nil }
        guard let h = TouchHandling(rawValue: word) else {
            report(pointer, "must be \"super\" or \"handle\", not \"\(word)\"")
            return nil
        }
        return h
    }

    /// `overrides.presses` (P3): a word, or the four methods and `only`.
    func pressOverrides(_ node: Int, at pointer: () -> String) -> PressOverrides? {
        if tape.kind(node) == .string { return handling(node, at: pointer).map { PressOverrides(all: $0) } }
        guard tape.kind(node) == .object else {
            report(pointer, "must be \"super\", \"handle\" or {\"began\": …, \"changed\": …, \"ended\": …, \"cancelled\": …, \"only\": […]}")
            return nil
        }
        var o = PressOverrides(began: .superCall, changed: .superCall, ended: .superCall, cancelled: .superCall)
        object(node, at: pointer) { (key: PressMethodKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .began: o.began = handling(v, at: at) ?? .superCall
            case .changed: o.changed = handling(v, at: at) ?? .superCall
            case .ended: o.ended = handling(v, at: at) ?? .superCall
            case .cancelled: o.cancelled = handling(v, at: at) ?? .superCall
            case .only:
                if let names = strings(v, at: at) {
                    if names.isEmpty { report(at, "needs at least one press type, key (charactersIgnoringModifiers) or keyCode") }
                    o.only = names
                }
            }
        }
        return o
    }

    /// `overrides.motion` (M2): a word, or the three methods.
    func motionOverrides(_ node: Int, at pointer: () -> String) -> MotionOverrides? {
        if tape.kind(node) == .string { return handling(node, at: pointer).map { MotionOverrides(all: $0) } }
        guard tape.kind(node) == .object else {
            report(pointer, "must be \"super\", \"handle\" or {\"began\": …, \"ended\": …, \"cancelled\": …}")
            return nil
        }
        var o = MotionOverrides(began: .superCall, ended: .superCall, cancelled: .superCall)
        object(node, at: pointer) { (key: MotionMethodKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .began: o.began = handling(v, at: at) ?? .superCall
            case .ended: o.ended = handling(v, at: at) ?? .superCall
            case .cancelled: o.cancelled = handling(v, at: at) ?? .superCall
            }
        }
        return o
    }

    /// `overrides.remoteControl` (RC2): a word, or `{"only": [subtypes]}`.
    func remoteControlOverride(_ node: Int, at pointer: () -> String) -> RemoteControlOverride? {
        let usage = "must be \"super\", \"handle\" or {\"only\": [remote-control subtypes]}"
        if tape.kind(node) == .string { return handling(node, at: pointer).map { RemoteControlOverride(handling: $0) } }
        guard tape.kind(node) == .object else { report(pointer, usage); return nil }
        var only: [RemoteControlSubtype]?
        let ok = object(node, at: pointer) { (key: RemoteControlOverrideKey, v) in
            func at() -> String { pointer().pointer(key.rawValue) }
            switch key {
            case .only:
                only = words(v, at: at, as: RemoteControlSubtype.self)
                if only?.isEmpty == true { report(at, "needs at least one subtype") }
            }
        }
        guard ok else { return nil }
        if !has(node, RemoteControlOverrideKey.only) { report(pointer, usage) }
        return only.map { RemoteControlOverride(handling: .superCall, only: $0) }
    }

    /// A responder's `keyCommands` (KC3), in declaration order.
    func keyCommands(_ node: Int, at pointer: () -> String) -> [KeyCommandSpec]? {
        guard let elements = array(node, at: pointer) else { return nil }
        var out: [KeyCommandSpec] = []
        for (i, e) in elements.enumerated() {
            func here() -> String { pointer().pointer(i) }
            var id: String?, input: String?, flags: [KeyModifierFlag] = [], action: String?, priority: Bool?
            let ok = object(e, at: here) { (key: KeyCommandKey, v) in
                func at() -> String { here().pointer(key.rawValue) }
                switch key {
                case .id: id = string(v, at: at)
                case .input: input = string(v, at: at, nonEmpty: false)
                case .modifierFlags: flags = modifierFlags(v, at: at) ?? []
                case .action: action = string(v, at: at)
                case .wantsPriorityOverSystemBehavior: priority = bool(v, at: at)
                }
            }
            guard ok else { continue }
            if !has(e, KeyCommandKey.input) {
                report(here, "required key \"input\" is missing (compared with the key's charactersIgnoringModifiers)")
            }
            if !has(e, KeyCommandKey.action) { report(here, "required key \"action\" is missing") }
            if let input, let action {
                out.append(KeyCommandSpec(id: id, input: input, modifierFlags: flags, action: action,
                                          wantsPriorityOverSystemBehavior: priority))
            }
        }
        return out
    }
}

/// The four trait keys any responder may carry, whichever object's key enum names them.
enum ResponderTraitKey {
    case canBecomeFirstResponder, canResignFirstResponder, textInput, keyCommands

    /// Reads one trait into `traits`.
    func read(_ v: Int, at pointer: () -> String, reader: DocumentReader, into traits: inout ResponderTraits) {
        switch self {
        case .canBecomeFirstResponder: traits.canBecomeFirstResponder = reader.bool(v, at: pointer)
        case .canResignFirstResponder: traits.canResignFirstResponder = reader.bool(v, at: pointer)
        case .textInput: traits.textInput = reader.bool(v, at: pointer)
        case .keyCommands: traits.keyCommands = reader.keyCommands(v, at: pointer)
        }
    }
}
