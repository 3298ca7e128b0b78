/// An object in the responder chain (R rules). Gesture recognizers are never responders (R8).
public enum Responder: Sendable, Hashable {
    case view(Int)
    /// The view controller whose root view is this view.
    case viewController(ofView: Int)
    /// R6: inserted between windows and the application when `includeWindowScene` is on.
    case windowScene
    case application
    case appDelegate
}
