/// The UIKit methods a trace shows, with their Objective-C selector and Swift spelling (§5.1).
/// The engine records them by case, and the encoder copies each one's
/// `,"selector":…,"swift":…` from a table written once per process: finding a selector's
/// fragment by its text (a fingerprint of the bytes, then string equality) cost about 130
/// instructions per entry.
package enum UIKitSelector: UInt8, CaseIterable, Sendable {
    case sendEvent, hitTest, pointInside
    case touchesBegan, touchesMoved, touchesEnded, touchesCancelled
    case reset, ignoreTouch
    case shouldReceiveEvent, shouldReceiveTouch, shouldBegin, shouldRecognizeSimultaneously
    case shouldRequireFailureOf, shouldBeRequiredToFailBy
    case canPrevent, canBePrevented, requiresFailureOf, requiredToFailBy
    case beginTracking, continueTracking, endTracking, cancelTracking
    case sendActionToForEvent, sendActionToFromForEvent, targetForAction, canPerformAction
    case touchesShouldBegin, touchesShouldCancel
    case nextResponder
    case pressesBegan, pressesChanged, pressesEnded, pressesCancelled, shouldReceivePress
    case motionBegan, motionEnded, motionCancelled, remoteControlReceived
    case becomeFirstResponder, resignFirstResponder, canBecomeFirstResponder, canResignFirstResponder
    case insertText, deleteBackward

    package var names: (objc: String, swift: String) {
        switch self {
        case .sendEvent: return ("sendEvent:", "sendEvent(_:)")
        case .hitTest: return ("hitTest:withEvent:", "hitTest(_:with:)")
        case .pointInside: return ("pointInside:withEvent:", "point(inside:with:)")
        case .touchesBegan: return ("touchesBegan:withEvent:", "touchesBegan(_:with:)")
        case .touchesMoved: return ("touchesMoved:withEvent:", "touchesMoved(_:with:)")
        case .touchesEnded: return ("touchesEnded:withEvent:", "touchesEnded(_:with:)")
        case .touchesCancelled: return ("touchesCancelled:withEvent:", "touchesCancelled(_:with:)")
        case .reset: return ("reset", "reset()")
        case .ignoreTouch: return ("ignoreTouch:forEvent:", "ignore(_:for:)")
        case .shouldReceiveEvent: return ("gestureRecognizer:shouldReceiveEvent:", "gestureRecognizer(_:shouldReceive:)")
        case .shouldReceiveTouch: return ("gestureRecognizer:shouldReceiveTouch:", "gestureRecognizer(_:shouldReceive:)")
        case .shouldBegin: return ("gestureRecognizerShouldBegin:", "gestureRecognizerShouldBegin(_:)")
        case .shouldRecognizeSimultaneously:
            return ("gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:",
                    "gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)")
        case .shouldRequireFailureOf:
            return ("gestureRecognizer:shouldRequireFailureOfGestureRecognizer:", "gestureRecognizer(_:shouldRequireFailureOf:)")
        case .shouldBeRequiredToFailBy:
            return ("gestureRecognizer:shouldBeRequiredToFailByGestureRecognizer:", "gestureRecognizer(_:shouldBeRequiredToFailBy:)")
        case .canPrevent: return ("canPreventGestureRecognizer:", "canPrevent(_:)")
        case .canBePrevented: return ("canBePreventedByGestureRecognizer:", "canBePrevented(by:)")
        case .requiresFailureOf: return ("shouldRequireFailureOfGestureRecognizer:", "shouldRequireFailure(of:)")
        case .requiredToFailBy: return ("shouldBeRequiredToFailByGestureRecognizer:", "shouldBeRequiredToFail(by:)")
        case .beginTracking: return ("beginTrackingWithTouch:withEvent:", "beginTracking(_:with:)")
        case .continueTracking: return ("continueTrackingWithTouch:withEvent:", "continueTracking(_:with:)")
        case .endTracking: return ("endTrackingWithTouch:withEvent:", "endTracking(_:with:)")
        case .cancelTracking: return ("cancelTrackingWithEvent:", "cancelTracking(with:)")
        case .sendActionToForEvent: return ("sendAction:to:forEvent:", "sendAction(_:to:for:)")
        case .sendActionToFromForEvent: return ("sendAction:to:from:forEvent:", "sendAction(_:to:from:for:)")
        case .targetForAction: return ("targetForAction:withSender:", "target(forAction:withSender:)")
        case .canPerformAction: return ("canPerformAction:withSender:", "canPerformAction(_:withSender:)")
        case .touchesShouldBegin: return ("touchesShouldBegin:withEvent:inContentView:", "touchesShouldBegin(_:with:in:)")
        case .touchesShouldCancel: return ("touchesShouldCancelInContentView:", "touchesShouldCancel(in:)")
        case .nextResponder: return ("nextResponder", "next")
        case .pressesBegan: return ("pressesBegan:withEvent:", "pressesBegan(_:with:)")
        case .pressesChanged: return ("pressesChanged:withEvent:", "pressesChanged(_:with:)")
        case .pressesEnded: return ("pressesEnded:withEvent:", "pressesEnded(_:with:)")
        case .pressesCancelled: return ("pressesCancelled:withEvent:", "pressesCancelled(_:with:)")
        case .shouldReceivePress: return ("gestureRecognizer:shouldReceivePress:", "gestureRecognizer(_:shouldReceive:)")
        case .motionBegan: return ("motionBegan:withEvent:", "motionBegan(_:with:)")
        case .motionEnded: return ("motionEnded:withEvent:", "motionEnded(_:with:)")
        case .motionCancelled: return ("motionCancelled:withEvent:", "motionCancelled(_:with:)")
        case .remoteControlReceived: return ("remoteControlReceivedWithEvent:", "remoteControlReceived(with:)")
        case .becomeFirstResponder: return ("becomeFirstResponder", "becomeFirstResponder()")
        case .resignFirstResponder: return ("resignFirstResponder", "resignFirstResponder()")
        case .canBecomeFirstResponder: return ("canBecomeFirstResponder", "canBecomeFirstResponder")
        case .canResignFirstResponder: return ("canResignFirstResponder", "canResignFirstResponder")
        case .insertText: return ("insertText:", "insertText(_:)")
        case .deleteBackward: return ("deleteBackward", "deleteBackward()")
        }
    }

    /// The case for an Objective-C selector, if UIKit's.
    static let byName: [String: UIKitSelector] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.names.objc, $0) })
}
