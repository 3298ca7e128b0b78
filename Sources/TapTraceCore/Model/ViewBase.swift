/// The UIKit class whose behaviour a view gets (`base` in the scene, contract §1).
public enum ViewBase: String, Sendable, CaseIterable {
    case UIView, UIWindow, UIControl, UIButton, UISwitch, UIStepper, UISegmentedControl,
         UIPageControl, UISlider, UITextField, UILabel, UIImageView, UIScrollView, UITableView,
         UICollectionView, UITextView, UIStackView, UITableViewCell, UICollectionViewCell

    /// Lookup by class name through a table: the synthesized `init(rawValue:)` compares the
    /// name with each case in turn, and every view of a scene asks.
    private static let byName: [String: ViewBase] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
    public static func named(_ name: String) -> ViewBase? { byName[name] }

    /// UIControl and its subclasses: they track touches and send control events (K rules).
    public var isControl: Bool {
        switch self {
        case .UIControl, .UIButton, .UISwitch, .UIStepper, .UISegmentedControl, .UIPageControl,
             .UISlider, .UITextField: return true
        default: return false
        }
    }

    /// UIScrollView and its subclasses: built-in delay and pan recognizers (SV1), T8.
    public var isScrollView: Bool {
        switch self {
        case .UIScrollView, .UITableView, .UICollectionView, .UITextView: return true
        default: return false
        }
    }

    /// H9: UILabel and UIImageView ignore touches unless told otherwise.
    public var defaultUserInteractionEnabled: Bool {
        switch self {
        case .UILabel, .UIImageView: return false
        default: return true
        }
    }

    /// X1/X2: controls that veto an ancestor's single-finger single tap.
    public var vetoesAncestorSingleTap: Bool {
        switch self {
        case .UIButton, .UISwitch, .UIStepper, .UISegmentedControl, .UIPageControl: return true
        default: return false
        }
    }
}

/// The built-in gesture recognizer classes (GP rules), plus UIScrollView's private ones (SV1).
public enum RecognizerBase: String, Sendable, CaseIterable {
    case tap = "UITapGestureRecognizer"
    case longPress = "UILongPressGestureRecognizer"
    case pan = "UIPanGestureRecognizer"
    case swipe = "UISwipeGestureRecognizer"
    case pinch = "UIPinchGestureRecognizer"
    case rotation = "UIRotationGestureRecognizer"
    case screenEdgePan = "UIScreenEdgePanGestureRecognizer"
    case scrollViewDelay = "UIScrollViewDelayedTouchesBeganGestureRecognizer"
    case scrollViewPan = "UIScrollViewPanGestureRecognizer"

    /// Classes a scene may name as `base` (the private scroll-view ones are created by SV1 only).
    public static let declarable: [RecognizerBase] = [.tap, .longPress, .pan, .swipe, .pinch, .rotation, .screenEdgePan]

    /// Discrete recognizers go possible → recognized (printed `.ended`, GS1).
    public var isDiscrete: Bool {
        switch self {
        case .tap, .swipe, .scrollViewDelay: return true
        default: return false
        }
    }
}

/// `UIControl.Event` names as the scene writes them.
public enum ControlEvent: String, Sendable, CaseIterable, Comparable {
    case touchDown, touchDownRepeat, touchDragInside, touchDragOutside, touchDragEnter,
         touchDragExit, touchUpInside, touchUpOutside, touchCancel, valueChanged,
         primaryActionTriggered, menuActionTriggered, editingDidBegin, editingChanged,
         editingDidEnd, editingDidEndOnExit, allTouchEvents, allEditingEvents, allEvents

    /// Bit of `UIControl.Event`'s raw value: the order events are listed in when fired together.
    public var bit: UInt32 {
        switch self {
        case .touchDown: return 1 << 0
        case .touchDownRepeat: return 1 << 1
        case .touchDragInside: return 1 << 2
        case .touchDragOutside: return 1 << 3
        case .touchDragEnter: return 1 << 4
        case .touchDragExit: return 1 << 5
        case .touchUpInside: return 1 << 6
        case .touchUpOutside: return 1 << 7
        case .touchCancel: return 1 << 8
        case .valueChanged: return 1 << 12
        case .primaryActionTriggered: return 1 << 13
        case .menuActionTriggered: return 1 << 14
        case .editingDidBegin: return 1 << 16
        case .editingChanged: return 1 << 17
        case .editingDidEnd: return 1 << 18
        case .editingDidEndOnExit: return 1 << 19
        case .allTouchEvents: return 0x0000_0FFF
        case .allEditingEvents: return 0x000F_0000
        case .allEvents: return 0xFFFF_FFFF
        }
    }

    public static func < (l: ControlEvent, r: ControlEvent) -> Bool { l.bit < r.bit }

    /// The single events (not the `all…` masks) in a mask, in raw-value order.
    public static func events(in mask: UInt32) -> [ControlEvent] {
        allCases.filter { $0.bit.nonzeroBitCount == 1 && mask & $0.bit != 0 }
    }
}
