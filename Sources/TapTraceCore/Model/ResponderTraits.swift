/// `UIKeyCommand` (KC3): a key and modifiers, and the action sent up the chain when they are
/// pressed.
public struct KeyCommandSpec: Sendable, Hashable {
    /// nil: `"<responder id>.keyCommands[<index>]"` (`ResponderTraits.keyCommandID`).
    public var id: String?
    /// Compared with `key.charactersIgnoringModifiers` (KC3).
    public var input: String
    public var modifierFlags: [KeyModifierFlag]
    public var action: String
    public var wantsPriorityOverSystemBehavior: Bool?
    public init(id: String? = nil, input: String, modifierFlags: [KeyModifierFlag] = [], action: String,
                wantsPriorityOverSystemBehavior: Bool? = nil) {
        self.id = id; self.input = input; self.modifierFlags = modifierFlags; self.action = action
        self.wantsPriorityOverSystemBehavior = wantsPriorityOverSystemBehavior
    }
}

/// What any responder (a view, a window, a view controller, the application, its delegate) may
/// declare about the first responder and the keyboard (contract §2.1; F1, KC1–KC3). Absent
/// values take UIKit's defaults (`SceneIndex+FirstResponder`).
public struct ResponderTraits: Sendable, Hashable {
    public var canBecomeFirstResponder: Bool?
    public var canResignFirstResponder: Bool?
    /// Its text input takes typed keys (KC1, KC2).
    public var textInput: Bool?
    public var keyCommands: [KeyCommandSpec]?
    public init() {}

    /// Field by field: every view of every scene asks (a comparison with an empty value built
    /// one and compared its arrays).
    public var isEmpty: Bool {
        canBecomeFirstResponder == nil && canResignFirstResponder == nil && textInput == nil && keyCommands == nil
    }

    /// A key command's id: its own, else `"<responder>.keyCommands[<index>]"`.
    public static func keyCommandID(_ command: KeyCommandSpec, responder: String, index: Int) -> String {
        command.id ?? "\(responder).keyCommands[\(index)]"
    }
}
