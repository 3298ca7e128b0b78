import TapTraceCore
import TapTraceFormats

/// A grid scene: `rows` rows of `cols` cells, each a 1×1 pt view (rows × cols + rows + 1 views).
func gridScene(rows: Int, cols: Int) -> String {
    var s = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, \#(cols), \#(rows)], "subviews": ["#
    s.reserveCapacity(rows * cols * 70)
    for row in 0..<rows {
        if row > 0 { s += "," }
        s += #"{"id": "r\#(row)", "class": "UIView", "frame": [0, \#(row), \#(cols), 1], "subviews": ["#
        for col in 0..<cols {
            if col > 0 { s += "," }
            s += #"{"id": "c\#(row)_\#(col)", "class": "UIView", "frame": [\#(col), 0, 1, 1]}"#
        }
        s += "]}"
    }
    return s + "]}]}"
}

/// A realistic screen of about 1,000 views, 12 levels deep: a navigation bar, a table (a
/// UIScrollView) of 60 cells and a tab bar. Each cell: content view, stacks, image, labels,
/// a badge and an accessory button (with its private label and image view), nested so that
/// the button's label sits 12 levels below the window.
func tableScreen(cells: Int = 60) -> String {
    func v(_ id: String, _ cls: String, _ frame: String, _ extra: String = "", _ sub: [String] = []) -> String {
        #"{"id": "\#(id)", "class": "\#(cls)", "frame": [\#(frame)]\#(extra)\#(sub.isEmpty ? "" : #", "subviews": ["# + sub.joined(separator: ",") + "]")}"#
    }
    var rows: [String] = []
    for i in 0..<cells {
        let button = v("buy\(i)", "UIButton", "0, 0, 60, 32", #", "targets": [{"events": ["touchUpInside"], "target": null, "action": "buy:"}]"#,
                       [v("buy\(i).label", "UIButtonLabel", "8, 6, 44, 20", #", "base": "UILabel""#), v("buy\(i).image", "UIImageView", "0, 0, 8, 8")])
        let accessory = v("acc\(i)", "UIView", "300, 10, 80, 40", "", [v("wrap\(i)", "UIView", "0, 0, 80, 40", "", [v("wrap2_\(i)", "UIView", "10, 4, 70, 36", "", [v("wrap3_\(i)", "UIView", "0, 0, 70, 36", "", [button])])])])
        let badge = v("badge\(i)", "UIView", "200, 10, 30, 20", "", [v("badgeLabel\(i)", "UILabel", "0, 0, 30, 20")])
        let texts = v("texts\(i)", "UIStackView", "60, 5, 130, 50", "", [v("title\(i)", "UILabel", "0, 0, 130, 25"), v("subtitle\(i)", "UILabel", "0, 25, 130, 25")])
        let stack = v("stack\(i)", "UIStackView", "0, 0, 390, 60", "", [v("image\(i)", "UIImageView", "5, 5, 50, 50"), texts, badge, v("spacer\(i)", "UIView", "240, 0, 50, 60"), accessory])
        rows.append(v("cell\(i)", "UITableViewCell", "0, \(i * 60), 390, 60", "", [v("content\(i)", "UIView", "0, 0, 390, 60", "", [stack])]))
    }
    let table = v("table", "UITableView", "0, 88, 390, 700", #", "scrollView": {"contentSize": [390, \#(cells * 60)]}"#, rows)
    let nav = v("nav", "UIView", "0, 0, 390, 88", "", [v("back", "UIButton", "8, 44, 60, 44"), v("navTitle", "UILabel", "100, 44, 190, 44"), v("navAction", "UIButton", "320, 44, 60, 44")])
    var items: [String] = []
    for k in 0..<5 {
        items.append(v("tab\(k)", "TabItem", "\(k * 78), 0, 78, 56", #", "base": "UIControl""#, [v("tabIcon\(k)", "UIImageView", "27, 6, 24, 24"), v("tabLabel\(k)", "UILabel", "0, 32, 78, 20")]))
    }
    let tabBar = v("tabBar", "UIView", "0, 788, 390, 56", "", items)
    let root = v("root", "UIView", "0, 0, 390, 844", #", "viewController": {"id": "VC", "class": "ListViewController", "implements": ["buy:"]}"#, [table, nav, tabBar])
    return #"{"format": "taptrace/scene@1", "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate"}}, "windows": ["# + v("W", "UIWindow", "0, 0, 390, 844", "", [root]) + "]}"
}

/// `tableScreen()` with a search field (a UITextField, the first responder) in the navigation
/// bar and two key commands on the controller, ⌘S and ⌘F, which it implements.
func keyboardScreen() -> Scene {
    var scene = try! InputDecoder.scene(Array(tableScreen().utf8))
    let nav = scene.views.firstIndex { $0.id == "nav" }!
    var field = ViewSpec(id: "search", className: "UISearchTextField", base: .UITextField)
    field.frame = Rect(100, 50, 190, 32)
    scene.add(field, to: nav)
    let root = scene.views.firstIndex { $0.id == "root" }!
    var controller = scene.views[root].viewController!
    controller.implements = ["buy:", "saveDocument:", "find:"]
    controller.traits.keyCommands = [KeyCommandSpec(input: "s", modifierFlags: [.command], action: "saveDocument:"),
                                     KeyCommandSpec(input: "f", modifierFlags: [.command], action: "find:")]
    scene.views[root].viewController = controller
    var app = scene.app ?? AppSpec()
    app.focusedResponder = "search"
    scene.app = app
    return scene
}

/// 100 key presses 0.2 s apart, each down for 0.08 s: ⌘S at every tenth, ⌘F at every tenth
/// after it, letters otherwise.
func keyboardRecords() -> [TouchRecord] {
    var records: [TouchRecord] = []
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    for k in 0..<100 {
        let key: KeyInput
        switch k % 10 {
        case 0: key = KeyInput(characters: "s", charactersIgnoringModifiers: "s", keyCode: "keyboardS", modifierFlags: [.command])
        case 5: key = KeyInput(characters: "f", charactersIgnoringModifiers: "f", keyCode: "keyboardF", modifierFlags: [.command])
        default:
            let c = String(letters[k % 26])
            key = KeyInput(characters: c, charactersIgnoringModifiers: c, keyCode: "keyboard" + c.uppercased(), modifierFlags: [])
        }
        let t = Double(k) * 0.2
        records.append(TouchRecord(t: t, touches: [], nonTouch: .presses([PressChange(id: "P\(k + 1)", phase: .began, type: .keyboard, key: key)])))
        records.append(TouchRecord(t: t + 0.08, touches: [], nonTouch: .presses([PressChange(id: "P\(k + 1)", phase: .ended, type: .keyboard, key: key)])))
    }
    return records
}

/// A view with pinch, rotation and pan recognizers inside a scroll view.
let gestureScene = """
    {"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": [
      {"id": "R", "class": "UIView", "frame": [0, 0, 390, 844], "viewController": {"id": "VC", "class": "PhotoViewController"}, "subviews": [
        {"id": "S", "class": "UIScrollView", "frame": [0, 0, 390, 844], "scrollView": {"contentSize": [390, 3000]}, "subviews": [
          {"id": "Photo", "class": "PhotoView", "frame": [0, 100, 390, 600], "gestureRecognizers": [
            {"id": "pinch", "class": "UIPinchGestureRecognizer", "delegate": {"id": "VC", "shouldRecognizeSimultaneouslyWith": "all"}, "targets": [{"target": "VC", "action": "pinched:"}]},
            {"id": "rotate", "class": "UIRotationGestureRecognizer", "delegate": {"id": "VC", "shouldRecognizeSimultaneouslyWith": "all"}, "targets": [{"target": "VC", "action": "rotated:"}]},
            {"id": "pan", "class": "UIPanGestureRecognizer", "minimumNumberOfTouches": 2, "delegate": {"id": "VC", "shouldRecognizeSimultaneouslyWith": "all"}, "targets": [{"target": "VC", "action": "panned:"}]}]}]}]}]}]}
    """

/// Two fingers for 10 s at 120 Hz: they move apart, rotate and drift.
func twoFingerRecords(seconds: Double = 10, hz: Double = 120) -> [TouchRecord] {
    var records: [TouchRecord] = []
    let steps = Int(seconds * hz)
    func points(_ k: Int) -> (Point, Point) {
        let f = Double(k) / Double(steps)
        let angle = f * 1.5
        let spread = 60 + 80 * f
        let cx = 195 + 40 * f, cy = 400 - 60 * f
        var c = 1.0, s = 0.0
        // cos/sin without Foundation: rotate in small steps.
        let n = 64
        let dc = 1 - (angle / Double(n)) * (angle / Double(n)) / 2, ds = angle / Double(n)
        for _ in 0..<n { (c, s) = (c * dc - s * ds, s * dc + c * ds) }
        return (Point(cx - spread * c, cy - spread * s), Point(cx + spread * c, cy + spread * s))
    }
    for k in 0...steps {
        let t = Double(k) / hz
        let (a, b) = points(k)
        let phase: TouchPhase = k == 0 ? .began : (k == steps ? .ended : .moved)
        records.append(TouchRecord(t: t, touches: [TouchChange(id: "T1", phase: phase, at: a), TouchChange(id: "T2", phase: phase, at: b)]))
    }
    return records
}


/// The same grid as `gridScene`, built in code (no JSON): the million-view grid of the guard
/// is set up in seconds under valgrind this way.
func gridSceneValue(rows: Int, cols: Int) -> Scene {
    var scene = Scene()
    scene.views.reserveCapacity(rows * cols + rows + 1)
    var window = ViewSpec(id: "W", className: "UIWindow", base: .UIWindow)
    window.frame = Rect(0, 0, Double(cols), Double(rows))
    let w = scene.add(window, to: nil)
    for row in 0..<rows {
        var r = ViewSpec(id: "r\(row)", className: "UIView", base: .UIView)
        r.frame = Rect(0, Double(row), Double(cols), 1)
        let rowView = scene.add(r, to: w)
        for col in 0..<cols {
            var c = ViewSpec(id: "c\(row)_\(col)", className: "UIView", base: .UIView)
            c.frame = Rect(Double(col), 0, 1, 1)
            scene.add(c, to: rowView)
        }
    }
    return scene
}

/// A `recursiveDescription` dump of 20,000 views in runs of 40, each one level deeper than the
/// one before.
func recursiveDescriptionDump() -> String {
    var dump = "<UIWindow: 0x1; frame = (0 0; 400 800); layer = <UIWindowLayer: 0x2>>\n"
    for k in 1..<20_000 {
        let depth = (k - 1) % 40 + 1
        dump += String(repeating: "   |", count: depth)
            + " <UIView: 0x\(String(k + 16, radix: 16)); frame = (1 1; \(400 - depth) 700); layer = <CALayer: 0x9>>\n"
    }
    return dump
}

/// An Appium page source of 20,000 lines: a table of 6,666 cells with a label each.
func appiumPageSource() -> String {
    var page = #"<?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication name="Bench" x="0" y="0" width="400" height="800">"#
        + #"<XCUIElementTypeWindow x="0" y="0" width="400" height="800"><XCUIElementTypeTable x="0" y="0" width="400" height="800">"# + "\n"
    for k in 0..<6_666 {
        let y = k * 44, visible = y < 800
        page += #"<XCUIElementTypeCell type="XCUIElementTypeCell" visible="\#(visible)" x="0" y="\#(y)" width="400" height="44">"# + "\n"
            + #"<XCUIElementTypeStaticText name="Row \#(k)" visible="\#(visible)" x="16" y="\#(y + 12)" width="200" height="20"/>"# + "\n"
            + "</XCUIElementTypeCell>\n"
    }
    return page + "</XCUIElementTypeTable></XCUIElementTypeWindow></XCUIElementTypeApplication></AppiumAUT>\n"
}
