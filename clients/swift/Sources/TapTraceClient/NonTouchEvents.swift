import Foundation

// UIKit's events other than touches (contract §2.1), built in Swift: a hardware keyboard's key
// with modifiers, a press of a remote's button, a shake, a remote-control event, and app code
// that calls becomeFirstResponder or resignFirstResponder; and shortcuts that send one of them
// and read where it went.
//
// ```swift
// let touches = TapTrace.Touches(events:
//     TapTrace.TouchEvent.keyPress(try .key("s", .command), id: "P1")
//     + TapTrace.TouchEvent.keyPress(try .key("a"), id: "P2", at: 0.5)
//     + TapTrace.TouchEvent.shake(at: 1))
// let run = try await taptrace.dispatch(touches, in: scene.sceneID)
// #expect(run.resultDocument.press("P1")?.keyCommand == "editorVC.keyCommands[0]")
// ```

extension TapTrace {
    public typealias TouchEvent = Components.Schemas.TouchEvent
    public typealias Key = Components.Schemas.Key
    /// Where one press went (an entry of the result's `presses`).
    public typealias PressSummary = Components.Schemas.PressSummary
    /// Where one shake phase or remote-control event went (`motions`, `remoteControls`).
    public typealias Delivery = Components.Schemas.NonTouchDelivery

    /// Presses a hardware keyboard's key (`try .key("s", .command)`: ⌘S) as press `P1` and
    /// releases it 0.08 s later, in the latest version of a stored scene (or `version`), and
    /// returns the stored run; `run.resultDocument.press("P1")` says where the key went.
    public func pressKey(_ key: Key, in scene: SceneID, label: String? = nil, version: Int? = nil) async throws -> Run {
        try await dispatch(Touches(events: TouchEvent.keyPress(key)), in: scene, label: label, version: version)
    }

    /// Shakes the device: a shake that begins at 0 and ends 0.4 s later.
    public func shake(in scene: SceneID, label: String? = nil, version: Int? = nil) async throws -> Run {
        try await dispatch(Touches(events: TouchEvent.shake()), in: scene, label: label, version: version)
    }

    /// Sends one remote-control event (`.togglePlayPause`, `.nextTrack`, …).
    public func remoteControl(_ subtype: Components.Schemas.RemoteControlSubtype, in scene: SceneID,
                              label: String? = nil, version: Int? = nil) async throws -> Run {
        try await dispatch(Touches(events: [TouchEvent.remoteControl(subtype)]), in: scene, label: label, version: version)
    }
}

/// A key name that is neither one character of a US keyboard nor a named key.
public struct UnknownKeyError: Error, Sendable, CustomStringConvertible, LocalizedError {
    public var name: String
    public var description: String {
        "\"\(name)\" is not a key: give one character or a key's name (Return, Escape, Tab, Backspace, Up, F1, …)"
    }
    public var errorDescription: String? { description }
}

extension Components.Schemas.Key {
    /// How long `keyPress` and `press` hold a key (seconds).
    public static let hold = 0.08

    /// The `UIKey` UIKit reports for a key: one character (`"s"`, `"5"`, `"/"`; a capital letter
    /// is the letter with shift) or a named key (`Return`, `Escape`, `Tab`, `Backspace`,
    /// `Delete`, `Space`, `Up`, `Down`, `Left`, `Right`, `Home`, `End`, `PageUp`, `PageDown`,
    /// `F1`…`F24`), with `modifiers`. Keys that type nothing carry UIKit's `UIKeyInput…` string;
    /// Return, Tab and Backspace carry "\r", "\t" and "\u{8}".
    public static func key(_ name: String, _ modifiers: Components.Schemas.KeyModifierFlag...) throws -> Self {
        var flags = Set(modifiers)
        let characters: String, ignoring: String, keyCode: String
        let lower = name.lowercased()
        if name.count == 1, named[lower] == nil || name == " " {
            let c = name.first!
            if c.isASCII, c.isLetter {
                if name != lower { flags.insert(.shift) }
                keyCode = "keyboard" + lower.uppercased()
            } else if c.isASCII, c.isNumber {
                keyCode = "keyboard" + name
            } else if let code = punctuation[name] {
                keyCode = code
            } else {
                throw UnknownKeyError(name: name)
            }
            ignoring = lower
            characters = flags.contains(.shift) ? lower.uppercased() : lower
        } else if let entry = named[lower] {
            characters = entry.characters
            ignoring = entry.characters
            keyCode = entry.keyCode
        } else {
            throw UnknownKeyError(name: name)
        }
        return Self(characters: characters, charactersIgnoringModifiers: ignoring, keyCode: keyCode,
                    modifierFlags: Components.Schemas.KeyModifierFlag.allCases.filter(flags.contains))
    }

    private static let named: [String: (characters: String, keyCode: String)] = {
        var keys: [String: (characters: String, keyCode: String)] = [
            "return": ("\r", "keyboardReturnOrEnter"), "enter": ("\r", "keyboardReturnOrEnter"),
            "escape": ("UIKeyInputEscape", "keyboardEscape"), "esc": ("UIKeyInputEscape", "keyboardEscape"),
            "tab": ("\t", "keyboardTab"), "backspace": ("\u{8}", "keyboardDeleteOrBackspace"),
            "delete": ("UIKeyInputDelete", "keyboardDeleteForward"), "space": (" ", "keyboardSpacebar"),
            "home": ("UIKeyInputHome", "keyboardHome"), "end": ("UIKeyInputEnd", "keyboardEnd"),
            "pageup": ("UIKeyInputPageUp", "keyboardPageUp"), "pagedown": ("UIKeyInputPageDown", "keyboardPageDown"),
        ]
        for arrow in ["Up", "Down", "Left", "Right"] {
            let key = ("UIKeyInput\(arrow)Arrow", "keyboard\(arrow)Arrow")
            keys[arrow.lowercased()] = key
            keys[arrow.lowercased() + "arrow"] = key
        }
        for n in 1...24 { keys["f\(n)"] = ("UIKeyInputF\(n)", "keyboardF\(n)") }
        return keys
    }()

    private static let punctuation: [String: String] = [
        "-": "keyboardHyphen", "=": "keyboardEqualSign", "[": "keyboardOpenBracket", "]": "keyboardCloseBracket",
        "\\": "keyboardBackslash", ";": "keyboardSemicolon", "'": "keyboardQuote", "`": "keyboardGraveAccentAndTilde",
        ",": "keyboardComma", ".": "keyboardPeriod", "/": "keyboardSlash", " ": "keyboardSpacebar",
    ]
}

extension Components.Schemas.TouchEvent {
    /// A keyboard key pressed at `t` and released `hold` seconds later: two records.
    public static func keyPress(_ key: Components.Schemas.Key, id: String = "P1", at t: Double = 0,
                                hold: Double = Components.Schemas.Key.hold) -> [Self] {
        pressRecords(.keyboard, key: key, id: id, at: t, hold: hold)
    }

    /// A press of a remote's or game controller's button (`.select`, `.menu`, `.playPause`,
    /// `.upArrow`, …) at `t`, released `hold` seconds later: two records.
    public static func press(_ type: Components.Schemas.PressType, id: String = "P1", at t: Double = 0,
                             hold: Double = Components.Schemas.Key.hold) -> [Self] {
        pressRecords(type, key: nil, id: id, at: t, hold: hold)
    }

    private static func pressRecords(_ type: Components.Schemas.PressType, key: Components.Schemas.Key?, id: String,
                                     at t: Double, hold: Double) -> [Self] {
        [Self(t: t, presses: [.init(id: id, phase: .began, _type: type, key: key)]),
         Self(t: rounded(t + hold), presses: [.init(id: id, phase: .ended, _type: type, key: key)])]
    }

    /// A shake: `began` at `t`, `ended` (or `cancelled`) `duration` seconds later.
    public static func shake(at t: Double = 0, duration: Double = 0.4, cancelled: Bool = false) -> [Self] {
        [Self(t: t, motion: .init(subtype: .shake, phase: .began)),
         Self(t: rounded(t + duration), motion: .init(subtype: .shake, phase: cancelled ? .cancelled : .ended))]
    }

    /// A remote-control event at `t`.
    public static func remoteControl(_ subtype: Components.Schemas.RemoteControlSubtype, at t: Double = 0) -> Self {
        Self(t: t, remoteControl: .init(subtype: subtype))
    }

    /// App code calling `becomeFirstResponder` on a view or view controller at `t` (F3).
    public static func become(_ responder: String, at t: Double = 0) -> Self {
        Self(t: t, responder: .init(become: responder))
    }

    /// App code calling `resignFirstResponder` on a view or view controller at `t` (F4).
    public static func resign(_ responder: String, at t: Double = 0) -> Self {
        Self(t: t, responder: .init(resign: responder))
    }

    /// 0.1 + 0.08 is 0.18000000000000002: the document says 0.18.
    private static func rounded(_ t: Double) -> Double { (t * 1e9).rounded() / 1e9 }
}

extension Components.Schemas.ResultMembers {
    /// The press with this id (`P1`), if the run had it.
    public func press(_ id: String) -> Components.Schemas.PressSummary? { presses?.first { $0.id == id } }
    /// The key window's first responder at the start of the run; nil without a non-touch record or a first responder.
    public var initialKeyResponderID: String? { keyResponder?.initial }
    /// The key window's first responder at the end of the run.
    public var finalKeyResponderID: String? { keyResponder?.final }
}

extension Components.Schemas.Run {
    /// The press with this id (`P1`), if the run had it.
    public func press(_ id: String) -> Components.Schemas.PressSummary? { resultDocument.press(id) }
}
