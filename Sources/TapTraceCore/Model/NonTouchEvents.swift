/// The input of UIKit's three other event types (contract §2.1, rules §3.17–3.23): presses,
/// motion and remote control, and the app code that changes the first responder. None is
/// hit-tested; each starts at the key window's first responder (N1).

/// `UIPress.Phase` (P1). `stationary` is UIKit's but never written in a document.
public enum PressPhase: String, Sendable, Hashable, CaseIterable {
    case began, changed, stationary, ended, cancelled

    public var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// `UIPress.PressType`, plus `keyboard` for a press of a hardware keyboard (then it has a `key`).
public enum PressType: String, Sendable, Hashable, CaseIterable {
    case keyboard, upArrow, downArrow, leftArrow, rightArrow, select, menu, playPause, pageUp, pageDown
}

/// `UIKeyModifierFlags`, by their Swift names.
public enum KeyModifierFlag: String, Sendable, Hashable, CaseIterable {
    case alphaShift, shift, control, alternate, command, numericPad
}

/// `UIKey`: what a keyboard press reports (contract §2.1).
public struct KeyInput: Sendable, Hashable {
    /// `characters`: what the key types with its modifiers (KC2 types this).
    public var characters: String
    /// `charactersIgnoringModifiers`: what key commands and `only` compare (KC3, P3).
    public var charactersIgnoringModifiers: String
    /// A `UIKeyboardHIDUsage` case name, e.g. `keyboardS` (KC2 sorts keys by it).
    public var keyCode: String
    public var modifierFlags: [KeyModifierFlag]
    public init(characters: String, charactersIgnoringModifiers: String, keyCode: String, modifierFlags: [KeyModifierFlag]) {
        self.characters = characters; self.charactersIgnoringModifiers = charactersIgnoringModifiers
        self.keyCode = keyCode; self.modifierFlags = modifierFlags
    }
}

extension KeyInput {
    /// How a key reads in notes and logs: its modifiers as the menus show them, then the key:
    /// `⌘s`, `"a"` (a plain printable key, quoted), `Escape`, `⇧Tab`, `Return`.
    public var displayText: String {
        var symbols = ""
        for (flag, symbol) in [(KeyModifierFlag.control, "⌃"), (.alternate, "⌥"), (.shift, "⇧"), (.command, "⌘")]
        where modifierFlags.contains(flag) { symbols += symbol }
        let c = charactersIgnoringModifiers
        let name: String
        switch c {
        case "\r": name = "Return"
        case "\t": name = "Tab"
        case "\u{8}": name = "Backspace"
        case "": name = keyCode
        default: name = c.hasPrefix("UIKeyInput") ? String(c.dropFirst("UIKeyInput".count)) : c
        }
        if symbols.isEmpty, c.count == 1, c != "\r", c != "\t", c != "\u{8}" { return "\"\(c)\"" }
        return symbols + name
    }
}

/// One press's change in a record: the press-id rules of touches (one began, any changed, one
/// ended or cancelled), its type and key repeated in every phase.
public struct PressChange: Sendable, Hashable {
    public var id: String
    public var phase: PressPhase
    public var type: PressType
    public var key: KeyInput?
    public init(id: String, phase: PressPhase, type: PressType, key: KeyInput? = nil) {
        self.id = id; self.phase = phase; self.type = type; self.key = key
    }
}

/// The phases UIKit reports of a shake (M1).
public enum MotionPhase: String, Sendable, Hashable, CaseIterable {
    case began, ended, cancelled
}

/// `UIEvent.EventSubtype.motionShake`: the only motion the responder chain gets (M1).
public enum MotionSubtype: String, Sendable, Hashable, CaseIterable {
    case shake
}

public struct MotionChange: Sendable, Hashable {
    public var subtype: MotionSubtype
    public var phase: MotionPhase
    public init(subtype: MotionSubtype = .shake, phase: MotionPhase) { self.subtype = subtype; self.phase = phase }
}

/// `UIEvent.EventSubtype.remoteControl…` (RC1), by their Swift case names without the prefix.
public enum RemoteControlSubtype: String, Sendable, Hashable, CaseIterable {
    case play, pause, stop, togglePlayPause, nextTrack, previousTrack
    case beginSeekingBackward, endSeekingBackward, beginSeekingForward, endSeekingForward
}

/// App code calling `becomeFirstResponder` or `resignFirstResponder` on a view or a view
/// controller (F3, F4): not an event.
public enum ResponderCall: Sendable, Hashable {
    case become(String)
    case resign(String)

    public var receiver: String {
        switch self {
        case .become(let id), .resign(let id): return id
        }
    }
    /// `become` or `resign`, as documents write it.
    public var name: String {
        switch self {
        case .become: return "become"
        case .resign: return "resign"
        }
    }
}

/// What a record carries besides touches: exactly one kind per record (contract §2.1).
/// Indirect: a record carries one reference for it (nil for touches), so copying the records of
/// touch-only runs costs what it did.
public indirect enum NonTouchEvent: Sendable, Hashable {
    case presses([PressChange])
    case motion(MotionChange)
    case remoteControl(RemoteControlSubtype)
    case responder(ResponderCall)
}
