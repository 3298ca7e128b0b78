/// The rule of dispatch-rules.md that an entry of the trace shows (`dispatch --text --rules`),
/// so that a reader can go from any line of a trace to the rule behind it, and from a `why`
/// reason's trace indices to the lines it cites.
public enum TraceRules {
    /// The rule id of `entry`, or nil for an app's own method (an action handler is A1 or GS2,
    /// by who sent it). `recognizers` are the ids of the run's recognizers (`touches*` calls to
    /// them are G1, to views T2).
    public static func rule(of entry: TraceEntry, in trace: [TraceEntry], recognizers: Set<String>) -> String? {
        switch entry.kind {
        case .state:
            let reason = entry.reason ?? ""
            if reason.hasPrefix("shouldBeginFalse") { return "GS7" }
            if reason.hasPrefix("requiredRecognized") { return "GM6" }
            if reason.hasPrefix("prevented") { return "GM2" }
            return "GS1"
        case .marker:
            switch entry.marker {
            case .collect: return "G2"
            case .gate: return (entry.note ?? "").contains("exclusive") ? "E3" : "E1"
            case .withhold: return "GV5"
            case .flush: return "GV7"
            case .drop: return "W5"
            case .pending: return "GS10"
            case .chainWalk: return "A2"
            case .hitTestPass: return "H12"
            case .sequenceEnd: return "GS8"
            case .timer: return "Q3"
            case .control: return "K3"
            case .keyResponder: return "N1"
            case .keyboard: return "KC5"
            case .keyCommand: return "KC3"
            case .textInput: return "KC2"
            case .firstResponder: return (entry.note ?? "").contains("resign") ? "F4" : "F3"
            case .unhandled: return "N5"
            case .shakeToEdit: return "M3"
            case .arrival: return "EA1"
            case nil: return nil
            }
        case .call:
            let selector = entry.selector ?? ""
            if let rule = callRules[selector] { return rule }
            switch selector {
            case "touchesBegan:withEvent:", "touchesMoved:withEvent:", "touchesEnded:withEvent:":
                return recognizers.contains(entry.receiver?.id ?? "") ? "G1" : "T2"
            case "touchesCancelled:withEvent:":
                return recognizers.contains(entry.receiver?.id ?? "") ? "G1" : "GV2"
            case "pressesBegan:withEvent:", "pressesChanged:withEvent:", "pressesEnded:withEvent:",
                 "pressesCancelled:withEvent:":
                return recognizers.contains(entry.receiver?.id ?? "") ? "PG3" : "P1"
            default:
                // An action method: sent by UIApplication's sendAction (A1) or by a recognizer (GS2).
                // `parent` is the parent's `seq`, which counts entries from 1.
                if entry.args.contains(where: { $0.name == "sender" && Self.isKeyCommandSender($0.value) }) { return "KC4" }
                guard let parent = entry.parent, parent >= 1, parent <= trace.count else { return "GS2" }
                return trace[parent - 1].selector == "sendAction:to:from:forEvent:" ? "A1" : "GS2"
            }
        }
    }

    static let callRules: [String: String] = [
        "hitTest:withEvent:": "H1",
        "pointInside:withEvent:": "H4",
        "sendEvent:": "W6",
        "gestureRecognizerShouldBegin:": "GS7",
        "gestureRecognizer:shouldReceiveTouch:": "G6",
        "gestureRecognizer:shouldReceiveEvent:": "G7",
        "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:": "GM3",
        "gestureRecognizer:shouldRequireFailureOfGestureRecognizer:": "GM7",
        "gestureRecognizer:shouldBeRequiredToFailByGestureRecognizer:": "GM7",
        "canPreventGestureRecognizer:": "GM4",
        "canBePreventedByGestureRecognizer:": "GM4",
        "shouldRequireFailureOfGestureRecognizer:": "GM7",
        "shouldBeRequiredToFailByGestureRecognizer:": "GM7",
        "beginTrackingWithTouch:withEvent:": "K2",
        "continueTrackingWithTouch:withEvent:": "K4",
        "endTrackingWithTouch:withEvent:": "K5",
        "cancelTrackingWithEvent:": "K7",
        "sendAction:to:forEvent:": "K8",
        "sendAction:to:from:forEvent:": "A1",
        "targetForAction:withSender:": "A4",
        "canPerformAction:withSender:": "A4",
        "touchesShouldBegin:withEvent:inContentView:": "SV4",
        "touchesShouldCancelInContentView:": "SV6",
        "reset": "GS8",
        "ignoreTouch:forEvent:": "G8",
        "nextResponder": "R7",
        "gestureRecognizer:shouldReceivePress:": "PG2",
        "motionBegan:withEvent:": "M2",
        "motionEnded:withEvent:": "M2",
        "motionCancelled:withEvent:": "M2",
        "remoteControlReceivedWithEvent:": "RC2",
        "becomeFirstResponder": "F3",
        "resignFirstResponder": "F4",
        "canBecomeFirstResponder": "F1",
        "canResignFirstResponder": "F4",
        "insertText:": "KC2",
        "deleteBackward": "KC2",
    ]

    /// A key command as an action's sender (KC4): written as its id, a string.
    private static func isKeyCommandSender(_ value: TraceValue) -> Bool {
        if case .string = value { return true }
        return false
    }
}
