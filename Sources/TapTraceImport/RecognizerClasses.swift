import TapTraceCore

/// Which of the engine's recognizer bases a printed recognizer class stands for.
///
/// - UIKit's public classes are their own base.
/// - `UIScrollViewDelayedTouchesBeganGestureRecognizer` and `UIScrollViewPanGestureRecognizer`
///   are a scroll view's own recognizers: the engine builds them for every scroll-view base
///   (SV1, ids `<view>.delay`, `<view>.pan`), so they are never added again.
/// - Other classes (custom or private) get the base their name implies, read as words:
///   `UIScrollViewPagingSwipeGestureRecognizer` is a swipe, `UIScrollViewKnobLongPressGestureRecognizer`
///   a long press, `_UIMultiSelectOneFingerPanGesture` a pan, `MyApp.DoubleTapRecognizer` a
///   tap. A word counts only when a capital letter, a non-letter or the end follows it, so
///   `Panel` is not a pan. Names that imply none (`_UIDragAutoScrollGestureRecognizer`,
///   `UIHoverGestureRecognizer`, which a pointer drives and touches never do) have no base.
enum RecognizerClasses {
    enum Kind: Equatable {
        case base(RecognizerBase)
        /// SV1's recognizer of a scroll view.
        case scrollViewBuiltIn(RecognizerBase)
        case unknown
    }

    static func kind(of className: String) -> Kind {
        if let b = RecognizerBase(rawValue: className) {
            if RecognizerBase.declarable.contains(b) { return .base(b) }
            return .scrollViewBuiltIn(b)
        }
        // The class without its Swift module (`myaudio.albumTap`).
        let name = className.split(separator: ".").last.map(String.init) ?? className
        for (word, base) in words where containsWord(name, word) { return .base(base) }
        return .unknown
    }

    /// Longest first: `ScreenEdgePan` before `Pan`, `LongPress` before `Press`.
    private static let words: [(String, RecognizerBase)] = [
        ("ScreenEdgePan", .screenEdgePan), ("EdgePan", .screenEdgePan), ("LongPress", .longPress),
        ("Swipe", .swipe), ("Pinch", .pinch), ("Rotation", .rotation), ("Rotate", .rotation),
        ("Tap", .tap), ("Pan", .pan),
    ]

    private static func containsWord(_ name: String, _ word: String) -> Bool {
        var rest = Substring(name)
        while !rest.isEmpty {
            if rest.hasPrefix(word) {
                let after = rest.dropFirst(word.count).first
                if after == nil || after!.isUppercase || !after!.isLetter { return true }
            }
            rest = rest.dropFirst()
        }
        return false
    }
}
