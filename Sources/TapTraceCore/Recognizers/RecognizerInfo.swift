/// A recognizer of the scene with its effective settings (UIKit defaults filled in). Thresholds
/// that are knobs (GP rules) are read from the run's knobs unless the scene sets them.
public struct RecognizerInfo: Sendable {
    public let id: String
    public let className: String
    public let base: RecognizerBase
    /// The view it is attached to.
    public let view: Int
    /// nil for SV1's built-in recognizers.
    public let spec: RecognizerSpec?
    public let enabled: Bool
    public let cancelsTouchesInView: Bool
    public let delaysTouchesBegan: Bool
    public let delaysTouchesEnded: Bool
    public let canPrevent: Bool
    public let canBePrevented: Bool
    /// Recognizer indices this one requires to fail (GM6), resolved by `SceneIndex`.
    public internal(set) var requireToFail: [Int] = []
    public let delegate: RecognizerDelegateSpec?
    /// For a scroll view's pan: the scroll view is its delegate (SV1) and asks SV6's questions.
    public let isScrollViewPan: Bool
    public let targets: [RecognizerTarget]

    public var ref: ObjectRef { ObjectRef(id: id, className: className) }
    public var isDiscrete: Bool { base.isDiscrete }

    init(spec: RecognizerSpec, view: Int) {
        id = spec.id
        className = spec.className
        base = spec.base
        self.view = view
        self.spec = spec
        enabled = spec.enabled ?? true
        cancelsTouchesInView = spec.cancelsTouchesInView ?? true
        delaysTouchesBegan = spec.delaysTouchesBegan ?? false
        delaysTouchesEnded = spec.delaysTouchesEnded ?? true
        canPrevent = spec.canPrevent ?? true
        canBePrevented = spec.canBePrevented ?? true
        delegate = spec.delegate
        isScrollViewPan = false
        targets = spec.targets
    }

    private init(builtIn base: RecognizerBase, id: String, view: Int, enabled: Bool, cancels: Bool,
                 delaysBegan: Bool, delaysEnded: Bool, delegate: RecognizerDelegateSpec?, targets: [RecognizerTarget]) {
        self.id = id
        className = base.rawValue
        self.base = base
        self.view = view
        spec = nil
        self.enabled = enabled
        cancelsTouchesInView = cancels
        delaysTouchesBegan = delaysBegan
        delaysTouchesEnded = delaysEnded
        canPrevent = true
        canBePrevented = true
        self.delegate = delegate
        isScrollViewPan = base == .scrollViewPan
        self.targets = targets
    }

    /// SV1: a scroll view's touch-delay recognizer (disabled by `delaysContentTouches = false`,
    /// SV3) and its pan (disabled by `scrollEnabled = false`), whose delegate and action target
    /// is the scroll view.
    static func scrollViewBuiltIns(view v: Int, spec: ViewSpec) -> [RecognizerInfo] {
        let s = spec.scrollView
        var panDelegate = RecognizerDelegateSpec(id: spec.id)
        panDelegate.shouldBegin = true // answered by SV6's logic, not by this value
        return [
            RecognizerInfo(builtIn: .scrollViewDelay, id: spec.id + ".delay", view: v,
                           enabled: s?.delaysContentTouches ?? true, cancels: false,
                           delaysBegan: true, delaysEnded: false, delegate: nil, targets: []),
            RecognizerInfo(builtIn: .scrollViewPan, id: spec.id + ".pan", view: v,
                           enabled: s?.scrollEnabled ?? true, cancels: true,
                           delaysBegan: false, delaysEnded: true, delegate: panDelegate,
                           targets: [RecognizerTarget(target: spec.id, action: "handlePan:")]),
        ]
    }
}
