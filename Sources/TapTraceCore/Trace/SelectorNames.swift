/// Objective-C selectors and their Swift spellings (§5.1).
public enum SelectorNames {
    private static let known: [String: String] = [
        "sendEvent:": "sendEvent(_:)",
        "hitTest:withEvent:": "hitTest(_:with:)",
        "pointInside:withEvent:": "point(inside:with:)",
        "touchesBegan:withEvent:": "touchesBegan(_:with:)",
        "touchesMoved:withEvent:": "touchesMoved(_:with:)",
        "touchesEnded:withEvent:": "touchesEnded(_:with:)",
        "touchesCancelled:withEvent:": "touchesCancelled(_:with:)",
        "reset": "reset()",
        "ignoreTouch:forEvent:": "ignore(_:for:)",
        "gestureRecognizer:shouldReceiveEvent:": "gestureRecognizer(_:shouldReceive:)",
        "gestureRecognizer:shouldReceiveTouch:": "gestureRecognizer(_:shouldReceive:)",
        "gestureRecognizerShouldBegin:": "gestureRecognizerShouldBegin(_:)",
        "gestureRecognizer:shouldRecognizeSimultaneouslyWithGestureRecognizer:": "gestureRecognizer(_:shouldRecognizeSimultaneouslyWith:)",
        "gestureRecognizer:shouldRequireFailureOfGestureRecognizer:": "gestureRecognizer(_:shouldRequireFailureOf:)",
        "gestureRecognizer:shouldBeRequiredToFailByGestureRecognizer:": "gestureRecognizer(_:shouldBeRequiredToFailBy:)",
        "canPreventGestureRecognizer:": "canPrevent(_:)",
        "canBePreventedByGestureRecognizer:": "canBePrevented(by:)",
        "shouldRequireFailureOfGestureRecognizer:": "shouldRequireFailure(of:)",
        "shouldBeRequiredToFailByGestureRecognizer:": "shouldBeRequiredToFail(by:)",
        "beginTrackingWithTouch:withEvent:": "beginTracking(_:with:)",
        "continueTrackingWithTouch:withEvent:": "continueTracking(_:with:)",
        "endTrackingWithTouch:withEvent:": "endTracking(_:with:)",
        "cancelTrackingWithEvent:": "cancelTracking(with:)",
        "sendAction:to:forEvent:": "sendAction(_:to:for:)",
        "sendAction:to:from:forEvent:": "sendAction(_:to:from:for:)",
        "targetForAction:withSender:": "target(forAction:withSender:)",
        "canPerformAction:withSender:": "canPerformAction(_:withSender:)",
        "touchesShouldBegin:withEvent:inContentView:": "touchesShouldBegin(_:with:in:)",
        "touchesShouldCancelInContentView:": "touchesShouldCancel(in:)",
        "nextResponder": "next",
    ]

    /// The UIKit selectors with a known Swift spelling.
    static var knownSelectors: Dictionary<String, String>.Keys { known.keys }

    /// The Swift spelling: known UIKit names from §5.1; an action selector such as
    /// `buttonTapped:forEvent:` becomes `buttonTapped(_:forEvent:)`.
    public static func swift(_ selector: String) -> String {
        if let name = known[selector] { return name }
        let parts = selector.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count > 1 else { return selector + "()" }
        var labels = ["_"]
        for p in parts.dropFirst().dropLast() { labels.append(String(p)) }
        return String(parts[0]) + "(" + labels.map { $0 + ":" }.joined() + ")"
    }

    /// Arguments an action method takes (A5): the number of colons.
    public static func argumentCount(_ selector: String) -> Int {
        selector.reduce(0) { $0 + ($1 == ":" ? 1 : 0) }
    }
}
