/// One entry of a control's target-action table (K8, K9).
public struct ControlTarget: Sendable, Hashable {
    public var events: [ControlEvent]
    /// nil: a nil-targeted action that walks the responder chain (A2).
    public var target: String?
    public var action: String
    public init(events: [ControlEvent], target: String?, action: String) {
        self.events = events; self.target = target; self.action = action
    }
    public var mask: UInt32 { events.reduce(0) { $0 | $1.bit } }
}

/// A recognizer's target-action pair (GS3). A nil target sends nothing (A7).
public struct RecognizerTarget: Sendable, Hashable {
    public var target: String?
    public var action: String
    public init(target: String?, action: String) { self.target = target; self.action = action }
}

/// The delegate of a recognizer. A present answer means the delegate implements that method and
/// is asked (traced); absent means not implemented (default answer, no call).
public struct RecognizerDelegateSpec: Sendable, Hashable {
    public enum RecognizerList: Sendable, Hashable {
        case all
        case ids([String])
        public func contains(_ id: String) -> Bool {
            switch self {
            case .all: return true
            case .ids(let ids): return ids.contains(id)
            }
        }
    }
    public var id: String
    /// Class of a delegate object that is not otherwise in the scene (an addition).
    public var className: String?
    public var shouldReceiveEvent: Bool?
    public var shouldReceiveTouch: Bool?
    public var shouldBegin: Bool?
    public var shouldRecognizeSimultaneouslyWith: RecognizerList?
    public var shouldRequireFailureOf: RecognizerList?
    public var shouldBeRequiredToFailBy: RecognizerList?
    /// `gestureRecognizer:shouldReceivePress:` (PG2).
    public var shouldReceivePress: Bool?
    public init(id: String) { self.id = id }
}

public enum SwipeDirection: String, Sendable, Hashable, CaseIterable {
    case right, left, up, down
}

public enum ScreenEdge: String, Sendable, Hashable, CaseIterable {
    case top, left, bottom, right, all
}

public struct RecognizerSpec: Sendable, Hashable {
    public var id: String
    public var className: String
    public var base: RecognizerBase
    public var explicitBase: Bool = false
    public var enabled: Bool?
    public var cancelsTouchesInView: Bool?
    public var delaysTouchesBegan: Bool?
    public var delaysTouchesEnded: Bool?
    public var numberOfTapsRequired: Int?
    public var numberOfTouchesRequired: Int?
    public var minimumPressDuration: Double?
    public var allowableMovement: Double?
    public var minimumNumberOfTouches: Int?
    /// nil in the scene means `NSUIntegerMax` (GP6).
    public var maximumNumberOfTouches: Int?
    public var maximumNumberOfTouchesGiven = false
    public var direction: [SwipeDirection]?
    public var edges: [ScreenEdge]?
    public var requireToFail: [String]?
    public var canPrevent: Bool?
    public var canBePrevented: Bool?
    public var requiresExclusiveTouchType: Bool?
    /// PG1: the press types it receives; nil means `[select]`.
    public var allowedPressTypes: [PressType]?
    public var delegate: RecognizerDelegateSpec?
    public var targets: [RecognizerTarget]
    public init(id: String, className: String, base: RecognizerBase) {
        self.id = id; self.className = className; self.base = base; self.targets = []
    }
}

public struct ScrollViewSpec: Sendable, Hashable {
    public var contentSize: Size?
    public var delaysContentTouches: Bool?
    public var canCancelContentTouches: Bool?
    public var scrollEnabled: Bool?
    public init() {}
}

public struct ViewControllerSpec: Sendable, Hashable {
    public var id: String
    public var className: String
    public var presentedBy: String?
    public var implements: [String]?
    public var overrides: ResponderOverrides?
    public var traits = ResponderTraits()
    public init(id: String, className: String) { self.id = id; self.className = className }
}

/// A view node as the scene gave it (windows are views too). Optional properties are nil when
/// the scene left them out; the effective value is the UIKit default (see `SceneIndex`).
public struct ViewSpec: Sendable, Hashable {
    public var id: String
    public var className: String
    public var base: ViewBase
    public var explicitBase = false
    public var frame: Rect?
    public var bounds: Rect?
    public var center: Point?
    public var transform: AffineTransform?
    public var hidden: Bool?
    public var alpha: Double?
    public var userInteractionEnabled: Bool?
    public var clipsToBounds: Bool?
    public var multipleTouchEnabled: Bool?
    public var exclusiveTouch: Bool?
    public var animating: Bool?
    public var enabled: Bool?
    public var level: Double?
    public var isKey: Bool?
    /// Indices into `Scene.views`, back to front.
    public var subviews: [Int] = []
    /// Index of the superview in `Scene.views`; nil for windows.
    public var superview: Int?
    /// The properties most views leave out, in one shared box (nil when all are): a view's
    /// spec is appended, read and compared for every view of every scene, and these made it
    /// twice as large (half a kilobyte), each copy a `memcpy` and a retain per reference.
    private var rare: RareBox?

    public init(id: String, className: String, base: ViewBase) {
        self.id = id; self.className = className; self.base = base
    }

    /// Whether any of the properties most views leave out is set (label, scrollView,
    /// overrides, implements, targets, gestureRecognizers, viewController): the checks of those
    /// are skipped at once for the others.
    package var hasRareProperties: Bool { rare != nil }

    public var label: String? {
        get { rare?.properties.label }
        set { setRare(\.label, newValue) }
    }
    /// Informational: the accessibility identifier a dump gave (imports, tap by element).
    public var accessibilityIdentifier: String? {
        get { rare?.properties.accessibilityIdentifier }
        set { setRare(\.accessibilityIdentifier, newValue) }
    }
    /// Informational: the memory address a dump printed (`0x7faa2f408000`). A relaunch changes
    /// it, so imports keep it here rather than in the id.
    public var address: String? {
        get { rare?.properties.address }
        set { setRare(\.address, newValue) }
    }
    public var scrollView: ScrollViewSpec? {
        get { rare?.properties.scrollView }
        set { setRare(\.scrollView, newValue) }
    }
    public var overrides: ViewOverrides? {
        get { rare?.properties.overrides }
        set { setRare(\.overrides, newValue) }
    }
    public var implements: [String]? {
        get { rare?.properties.implements }
        set { setRare(\.implements, newValue) }
    }
    public var targets: [ControlTarget]? {
        get { rare?.properties.targets }
        set { setRare(\.targets, newValue) }
    }
    public var gestureRecognizers: [RecognizerSpec]? {
        get { rare?.properties.gestureRecognizers }
        set { setRare(\.gestureRecognizers, newValue) }
    }
    public var viewController: ViewControllerSpec? {
        get { rare?.properties.viewController }
        set { setRare(\.viewController, newValue) }
    }
    /// First responder and keyboard declarations (contract §2.1); empty for most views.
    public var traits: ResponderTraits {
        get { rare?.properties.traits ?? ResponderTraits() }
        set { setRare(\.traits, newValue.isEmpty ? nil : newValue) }
    }

    /// Copy on write: a box shared with another spec is copied before it changes; a box left
    /// with nothing in it goes, so that equal specs compare equal.
    private mutating func setRare<Value>(_ property: WritableKeyPath<RareProperties, Value?>, _ value: Value?) {
        // Clearing what was never set (an importer's `label = text ?? placeholder` on every
        // view) allocates nothing.
        if value == nil, rare == nil { return }
        if rare == nil {
            rare = RareBox(RareProperties())
        } else if !isKnownUniquelyReferenced(&rare!) {
            rare = RareBox(rare!.properties)
        }
        rare!.properties[keyPath: property] = value
        // Only clearing can leave the box empty: comparing every field for each value set (an
        // importer sets two or three per view) cost more than the rest of setting it.
        if value == nil, rare!.properties == RareProperties() { rare = nil }
    }

    private struct RareProperties: Hashable {
        var label: String?
        var accessibilityIdentifier: String?
        var address: String?
        var scrollView: ScrollViewSpec?
        var overrides: ViewOverrides?
        var implements: [String]?
        var targets: [ControlTarget]?
        var gestureRecognizers: [RecognizerSpec]?
        var viewController: ViewControllerSpec?
        var traits: ResponderTraits?
    }

    /// Mutated only while uniquely referenced (`setRare`), so sharing it is safe, and no access
    /// can overlap a write: unchecked, since the runtime's check of every read of a label or a
    /// target list (a thread-local access set) cost more than the read itself.
    private final class RareBox: Hashable, @unchecked Sendable {
        @exclusivity(unchecked) var properties: RareProperties
        init(_ properties: RareProperties) { self.properties = properties }
        static func == (a: RareBox, b: RareBox) -> Bool { a === b || a.properties == b.properties }
        func hash(into hasher: inout Hasher) { hasher.combine(properties) }
    }
}

public struct AppDelegateSpec: Sendable, Hashable {
    public var id: String
    public var className: String
    public var isResponder: Bool?
    public var implements: [String]?
    public var overrides: ResponderOverrides?
    public var traits = ResponderTraits()
    public init(id: String, className: String) { self.id = id; self.className = className }
}

public struct AppSpec: Sendable, Hashable {
    public var id: String?
    public var className: String?
    public var implements: [String]?
    public var overrides: ResponderOverrides?
    public var delegate: AppDelegateSpec?
    public var focusedResponder: String?
    /// Z2: `beginIgnoringInteractionEvents` in effect; every touch is dropped (an addition).
    public var ignoringInteractionEvents: Bool?
    public var traits = ResponderTraits()
    /// M3: false, no `[shakeToEdit]` marker; default true.
    public var applicationSupportsShakeToEdit: Bool?
    /// RC3: false drops every remote-control record; default true.
    public var receivesRemoteControlEvents: Bool?
    public init() {}
}

/// A scene document (`taptrace/scene@1`). Views are stored flat, in document order (each view
/// before its subviews), so that neither decoding nor releasing a 10,000-deep tree recurses.
public struct Scene: Sendable, Hashable {
    public static let format = "taptrace/scene@1"
    public var name: String?
    public var app: AppSpec?
    public var knobs: KnobOverrides
    public var views: [ViewSpec]
    /// Indices of the windows in `views`, back to front as the scene lists them.
    public var windows: [Int]

    public init(name: String? = nil, app: AppSpec? = nil, knobs: KnobOverrides = KnobOverrides(),
                views: [ViewSpec] = [], windows: [Int] = []) {
        self.name = name; self.app = app; self.knobs = knobs; self.views = views; self.windows = windows
    }

    /// Appends a view under `superview` (nil: a new window) and returns its index.
    @discardableResult
    public mutating func add(_ view: ViewSpec, to superview: Int?) -> Int {
        var view = view
        view.superview = superview
        view.subviews = []
        views.append(view)
        let index = views.count - 1
        if let superview { views[superview].subviews.append(index) } else { windows.append(index) }
        return index
    }
}
