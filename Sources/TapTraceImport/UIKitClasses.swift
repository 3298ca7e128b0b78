import TapTraceCore

/// Which of the engine's base classes a UIKit class name stands for.
///
/// `-[UIView description]` prints `baseClass = X` only for classes from outside UIKit whose
/// nearest UIKit ancestor is not UIView (`AAUILabel; baseClass = UILabel`), so a class named
/// without that hint is either UIKit's own or a direct UIView subclass. UIKit's own classes are
/// matched by their exact name, never by prefix: `UIButtonLabel` is a UILabel, not a UIButton.
enum UIKitClasses {
    /// The base for a class name: the engine's own bases by name, then the table below.
    static func base(of name: String) -> ViewBase? {
        ViewBase(rawValue: name) ?? known[name]
    }

    /// UIKit classes (public and private) that are not bases of the engine, with the nearest
    /// base they inherit from. Only classes whose superclass chain is known; the rest get
    /// UIView, which is what they are for hit-testing.
    static let known: [String: ViewBase] = [
        // UILabel subclasses (non-interactive by default, H9).
        "UIButtonLabel": .UILabel, "UITableViewLabel": .UILabel, "UITextFieldLabel": .UILabel,
        "UIDateLabel": .UILabel, "UITabBarButtonLabel": .UILabel, "_UITableViewHeaderFooterViewLabel": .UILabel,
        // UIImageView subclasses.
        "UITabBarSwappableImageView": .UIImageView,
        // Controls.
        "_UIModernBarButton": .UIButton, "UINavigationButton": .UIButton,
        "_UIButtonBarButton": .UIControl, "UITabBarButton": .UIControl,
        "UIRefreshControl": .UIControl, "UIDatePicker": .UIControl, "UIColorWell": .UIControl,
        "UISearchTextField": .UITextField, "UISearchBarTextField": .UITextField,
        // Scroll views (they get the built-in delay and pan recognizers, SV1).
        "UITableViewWrapperView": .UIScrollView, "UITableViewCellScrollView": .UIScrollView,
        "_UIQueuingScrollView": .UIScrollView,
        // Windows.
        "UITextEffectsWindow": .UIWindow, "UIRemoteKeyboardWindow": .UIWindow,
        "UIStatusBarWindow": .UIWindow,
    ]

    /// A UIKit window class by its name (`UITextEffectsWindow`, `_UIInteractiveHighlightEffectWindow`):
    /// used for the top view of a dump only.
    static func looksLikeUIKitWindow(_ name: String) -> Bool {
        (name.hasPrefix("UI") || name.hasPrefix("_UI")) && name.hasSuffix("Window")
    }

    /// What the engine assumes when a scene gives no `base`: the class itself when it is a
    /// base, else UIWindow for windows and UIView for the rest (contract §1). An importer writes
    /// `base` only when it differs from this, so the scene reads back equal.
    static func impliedBase(className: String, isWindow: Bool) -> ViewBase {
        ViewBase(rawValue: className) ?? (isWindow ? .UIWindow : .UIView)
    }
}
