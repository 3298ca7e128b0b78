import TapTraceCore

/// XCUITest element types (`XCUIElementType…`, the element names of a WebDriverAgent page
/// source) and the UIKit base each stands for. The accessibility tree only says what an element
/// *is* to VoiceOver; the base is the UIKit class that usually produces that element.
enum AppiumElementTypes {
    static let prefix = "XCUIElementType"

    /// The base for a type name without the prefix (`Button`); nil for types outside XCTest's
    /// `XCUIElement.ElementType`. Cells take their base from the nearest Table or
    /// CollectionView ancestor (`inCollectionView`).
    static func base(of type: String, inCollectionView: Bool) -> ViewBase? {
        if let base = bases[type] { return base }
        if type == "Cell" { return inCollectionView ? .UICollectionViewCell : .UITableViewCell }
        return plainViews.contains(type) ? .UIView : nil
    }

    static let bases: [String: ViewBase] = [
        "Window": .UIWindow,
        "Button": .UIButton,
        "StaticText": .UILabel,
        "Image": .UIImageView,
        "TextField": .UITextField, "SecureTextField": .UITextField, "SearchField": .UITextField,
        "TextView": .UITextView,
        "Switch": .UISwitch, "Toggle": .UISwitch,
        "Slider": .UISlider,
        "Stepper": .UIStepper,
        "SegmentedControl": .UISegmentedControl,
        "PageIndicator": .UIPageControl,
        "DatePicker": .UIControl,
        "ScrollView": .UIScrollView,
        "Table": .UITableView,
        "CollectionView": .UICollectionView,
    ]

    /// Types that are containers with no behaviour of their own: with children they are
    /// imported as pass-through (the accessibility tree's sibling order is reading order, not
    /// z-order, so a container listed later must not hide the elements of an earlier sibling).
    static let containers: Set<String> = ["Other", "Group", "Any", "LayoutArea", "LayoutItem"]

    /// The other `XCUIElement.ElementType` cases: plain views here.
    static let plainViews: Set<String> = [
        "Any", "Other", "Application", "Group", "Sheet", "Drawer", "Alert", "Dialog",
        "RadioButton", "RadioGroup", "CheckBox", "DisclosureTriangle", "PopUpButton", "ComboBox",
        "MenuButton", "ToolbarButton", "Popover", "Keyboard", "Key", "NavigationBar", "TabBar",
        "TabGroup", "Toolbar", "StatusBar", "TableRow", "TableColumn", "Outline", "OutlineRow",
        "Browser", "ProgressIndicator", "ActivityIndicator", "Picker", "PickerWheel", "Link",
        "Icon", "ScrollBar", "Menu", "MenuItem", "MenuBar", "MenuBarItem", "Map", "WebView",
        "IncrementArrow", "DecrementArrow", "Timeline", "RatingIndicator", "ValueIndicator",
        "SplitGroup", "Splitter", "RelevanceIndicator", "ColorWell", "HelpTag", "Matte", "DockItem",
        "Ruler", "RulerMarker", "Grid", "LevelIndicator", "LayoutArea", "LayoutItem", "Handle",
        "Tab", "TouchBar", "StatusItem",
    ]
}

extension AppiumElementTypes {
    /// What the accessibility tree cannot say about z-order, assumed the same way by both of its
    /// importers (Appium, XCUITest): a window other than the app's main one, and a container
    /// with children, pass touches through where they would take them themselves (hitTest
    /// returns nil instead of the window or container). Returns the warning heading when the
    /// element gets the override, nil otherwise.
    static func passThrough(_ spec: inout ViewSpec, type: String, isWindow: Bool, isMainWindow: Bool,
                            hasChildren: Bool, mainWindow: String) -> String? {
        let heading: String
        if isWindow, !isMainWindow {
            heading = "windows other than the application's \(mainWindow) were made pass-through outside their elements (as UIKit's status bar, keyboard and alert windows are)"
        } else if !isWindow, containers.contains(type), hasChildren {
            heading = "container elements with children were made pass-through (hitTest returns nil where it would return the container itself), because the accessibility tree lists siblings in reading order, not z-order"
        } else {
            return nil
        }
        var o = ViewOverrides()
        o.hitTest = .passThrough
        spec.overrides = o
        return heading
    }
}

extension AppiumElementTypes {
    /// The base of an element of type `type` (without the prefix) and whether it is a window,
    /// as both accessibility-tree importers decide them: an unknown type is a UIView; a Window
    /// is a window only at the top (under the application), a plain view elsewhere; an
    /// Application below the top is a plain view. Each assumption is warned about; `at` says
    /// where, for the warning.
    static func element(_ type: String, topLevel: Bool, inCollectionView: Bool,
                        warnings: inout ImportWarnings, at location: String) -> (base: ViewBase, isWindow: Bool) {
        guard var base = base(of: type, inCollectionView: inCollectionView) else {
            warnings.add("unknown element types imported as UIView", prefix + type, .behaviour)
            return (.UIView, false)
        }
        if base == .UIWindow {
            if topLevel { return (base, true) }
            warnings.add("XCUIElementTypeWindow inside another element imported as a plain view", location)
            base = .UIView
        } else if type == "Application" {
            warnings.add("XCUIElementTypeApplication below the top imported as a plain view", location)
        }
        return (base, false)
    }
}
