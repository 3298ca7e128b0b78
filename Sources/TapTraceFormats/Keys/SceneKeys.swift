import TapTraceCore

// The keys of a scene document (`taptrace/scene@1`, contract §1), one enum per kind of object.
// `SceneDecoder` reads them, `SceneEncoder` writes them in this order, and an unknown key's
// issue lists them.

enum SceneKey: String, DocumentKey {
    case format, name, app, knobs, windows
    static let names = NameTable<Self>()
}

enum AppKey: String, DocumentKey {
    case id, `class`, implements, overrides, delegate, focusedResponder, ignoringInteractionEvents
    // Contract §2.1: the first responder and the keyboard (any responder), shake and remote control.
    case canBecomeFirstResponder, canResignFirstResponder, textInput, keyCommands
    case applicationSupportsShakeToEdit, receivesRemoteControlEvents
    static let names = NameTable<Self>()
}

enum AppDelegateKey: String, DocumentKey {
    case id, `class`, isResponder, implements, overrides
    case canBecomeFirstResponder, canResignFirstResponder, textInput, keyCommands
    static let names = NameTable<Self>()
}

enum ViewKey: String, DocumentKey {
    case id, `class`, label, accessibilityIdentifier, address, base, frame, bounds, center, transform, hidden, alpha
    case userInteractionEnabled, clipsToBounds, multipleTouchEnabled, exclusiveTouch
    case animating, enabled, level, isKey, scrollView, overrides, implements
    case canBecomeFirstResponder, canResignFirstResponder, textInput, keyCommands
    case targets, gestureRecognizers, viewController, subviews
    static let names = NameTable<Self>()
}

enum ScrollViewKey: String, DocumentKey {
    case contentSize, delaysContentTouches, canCancelContentTouches, scrollEnabled
    static let names = NameTable<Self>()
}

enum ViewOverrideKey: String, DocumentKey {
    case pointInside, hitTest, nextResponder, touches, gestureRecognizerShouldBegin
    case beginTracking, continueTracking, touchesShouldBegin, touchesShouldCancel, canPerformAction
    case presses, motion, remoteControl
    static let names = NameTable<Self>()
}

enum ResponderOverrideKey: String, DocumentKey {
    case touches, nextResponder, canPerformAction, presses, motion, remoteControl
    static let names = NameTable<Self>()
}

/// `presses` overrides given per method (P3), and the presses they are limited to.
enum PressMethodKey: String, DocumentKey {
    case began, changed, ended, cancelled, only
    static let names = NameTable<Self>()
}

/// `motion` overrides given per method (M2).
enum MotionMethodKey: String, DocumentKey {
    case began, ended, cancelled
    static let names = NameTable<Self>()
}

/// `remoteControl: {"only": [subtypes]}` (RC2).
enum RemoteControlOverrideKey: String, DocumentKey {
    case only
    static let names = NameTable<Self>()
}

/// An entry of a responder's `keyCommands` (KC3).
enum KeyCommandKey: String, DocumentKey {
    case id, input, modifierFlags, action, wantsPriorityOverSystemBehavior
    static let names = NameTable<Self>()
}

/// `touches` overrides given per method.
enum TouchMethodKey: String, DocumentKey {
    case began, moved, ended, cancelled
    static let names = NameTable<Self>()
}

/// The forms of a `pointInside` override: an object with exactly one of these.
enum PointInsideKey: String, DocumentKey {
    case insets, rects, circle, orSubviews, returns
    static let names = NameTable<Self>()
}

/// `hitTest: {"redirect": "viewId"}`.
enum HitTestRedirectKey: String, DocumentKey {
    case redirect
    static let names = NameTable<Self>()
}

enum ShouldBeginKey: String, DocumentKey {
    case `default`, byRecognizer
    static let names = NameTable<Self>()
}

/// An entry of a control's target-action table.
enum ControlTargetKey: String, DocumentKey {
    case events, target, action
    static let names = NameTable<Self>()
}

enum ViewControllerKey: String, DocumentKey {
    case id, `class`, presentedBy, implements, overrides
    case canBecomeFirstResponder, canResignFirstResponder, textInput, keyCommands
    static let names = NameTable<Self>()
}

enum RecognizerKey: String, DocumentKey {
    case id, `class`, base, enabled, cancelsTouchesInView, delaysTouchesBegan, delaysTouchesEnded
    case numberOfTapsRequired, numberOfTouchesRequired, minimumPressDuration, allowableMovement
    case minimumNumberOfTouches, maximumNumberOfTouches, direction, edges, requireToFail
    case canPrevent, canBePrevented, requiresExclusiveTouchType, allowedPressTypes, delegate, targets
    static let names = NameTable<Self>()
}

/// A recognizer's target-action pair.
enum RecognizerTargetKey: String, DocumentKey {
    case target, action
    static let names = NameTable<Self>()
}

enum RecognizerDelegateKey: String, DocumentKey {
    case id, `class`, shouldReceiveEvent, shouldReceiveTouch, shouldReceivePress, shouldBegin
    case shouldRecognizeSimultaneouslyWith, shouldRequireFailureOf, shouldBeRequiredToFailBy
    static let names = NameTable<Self>()
}

extension ViewBase {
    /// UIKit view classes by name, matched on a document's bytes.
    static let names = NameTable<ViewBase>()
}
