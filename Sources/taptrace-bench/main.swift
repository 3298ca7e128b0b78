// Engine benchmarks, run by hand (not tests): `swift run -c release taptrace-bench`.
// Figures and their meaning are in docs/performance.md.
import Foundation
import TapTraceCore
import TapTraceImport
import TapTraceStore
#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// Runs `body` `n` times and returns the median time in seconds.
func measure(_ n: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    times.reserveCapacity(n)
    for _ in 0..<n {
        let t0 = now()
        body()
        times.append(now() - t0)
    }
    return median(times)
}

func fmt(_ x: Double, _ digits: Int = 1) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let r = (x * p).rounded() / p
    return JSONWriter.format(r)
}

// MARK: scene generators

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

// MARK: runs

let only = CommandLine.arguments.dropFirst().first

if only == nil || only == "decode" {
    print("## decode + validate + index")
    let sizes = CommandLine.arguments.count > 2 ? [(100, 99)] : [(100, 99), (1000, 99)]
    for (rows, cols) in sizes {
        let bytes = Array(gridScene(rows: rows, cols: cols).utf8)
        let views = rows * cols + rows + 1
        var index: SceneIndex?
        let t = measure(Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 5) {
            index = try! InputDecoder.sceneIndex(bytes)
        }
        precondition(index!.viewCount == views)
        print("\(views) views, \(bytes.count / 1024) KiB: \(fmt(t * 1000)) ms median, \(fmt(Double(views) / t / 1000, 0))k views/s")
    }
}

if only == nil || only == "tap" {
    print("## tap with full trace, ~1,000-view scene of depth 12")
    let scene = try! InputDecoder.scene(Array(tableScreen().utf8))
    let index = SceneIndex(validated: scene)
    // The accessory button of cell 10: table y 88 + 10 × 60, then 10 + 4 (+ 16 inside the button).
    let depth = index.ancestry(index.view(withId: "buy10.label")!).count
    let p = Point(300 + 10 + 30, 88 + 600 + 10 + 4 + 16)
    let records = [TouchRecord(t: 0, touches: [TouchChange(id: "T1", phase: .began, at: p)]),
                   TouchRecord(t: 0.1, touches: [TouchChange(id: "T1", phase: .ended, at: p)])]
    let check = TapTrace.dispatch(index, records: records)
    precondition(check.firstResponder?.id == "buy10" && check.actions.count == 1, "bench scene broken")
    var entries = 0
    let iterations = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 2000
    let t = measure(iterations) { entries = TapTrace.dispatch(index, records: records).recorder.count }
    let withJSON = CommandLine.arguments.count > 2 ? 0 : measure(2000) { _ = ResultEncoder.encode(TapTrace.dispatch(index, records: records)) }
    print("\(index.viewCount) views, depth \(depth), \(entries) trace entries: dispatch \(fmt(t * 1e6)) µs median; with JSON encoding \(fmt(withJSON * 1e6)) µs")
}

if only == "encode" {
    // Encoding only, for profiling: `taptrace-bench encode N`.
    let index = SceneIndex(validated: try! InputDecoder.scene(Array(tableScreen().utf8)))
    let p = Point(340, 718)
    let records = [TouchRecord(t: 0, touches: [TouchChange(id: "T1", phase: .began, at: p)]),
                   TouchRecord(t: 0.1, touches: [TouchChange(id: "T1", phase: .ended, at: p)])]
    let r = TapTrace.dispatch(index, records: records)
    let n = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 1000
    let t = measure(n) { _ = ResultEncoder.encode(r) }
    print("encode \(r.recorder.count) entries, \(ResultEncoder.encode(r).count) bytes: \(fmt(t * 1e6)) µs median")
}

if only == "request" {
    // One request document (e.g. bench/run's dispatch.json), dispatch and encoding timed
    // apart: `taptrace-bench request FILE [N]`. What the HTTP service does per request,
    // without the HTTP.
    let path = CommandLine.arguments.dropFirst(2).first ?? "request.json"
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    let request = try! InputDecoder.request(Array(data))
    let index = SceneIndex(validated: request.scene)
    let n = Int(CommandLine.arguments.dropFirst(3).first ?? "") ?? 2000
    let r = TapTrace.dispatch(index, records: request.records, until: request.touches.until, knobs: request.knobs)
    let td = measure(n) { _ = TapTrace.dispatch(index, records: request.records, until: request.touches.until, knobs: request.knobs) }
    let te = measure(n) { _ = ResultEncoder.encode(r) }
    print("\(index.viewCount) views, \(r.recorder.count) entries, \(ResultEncoder.encode(r).count) bytes: dispatch \(fmt(td * 1e6)) µs, encode \(fmt(te * 1e6)) µs (medians)")
}

if only == "store" {
    // Stored runs per transaction: `taptrace-bench store RESULT.json [RUNS]`: the same result
    // stored RUNS times, one run per transaction and in batches, with the CPU time per run.
    let path = CommandLine.arguments.dropFirst(2).first ?? "result.json"
    guard let result = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    let runs = Int(CommandLine.arguments.dropFirst(3).first ?? "") ?? 4000
    func cpu() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
    for batch in [1, 2, 4, 8, 16] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("taptrace-bench-\(getpid())-\(batch)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try! TraceStore(location: .file(directory.appendingPathComponent("bench.sqlite").path))
        let scene = try! store.createScene(name: "bench", content: SceneContent(document: Data("{}".utf8), viewCount: 0, windowCount: 0, recognizerCount: 0))
        let run = NewRun(sceneID: scene.scene.id, sceneVersion: 1, request: Data(#"{"touches":{}}"#.utf8), result: result,
                         firstResponder: "v", actions: "[]", outcome: "digest", actionCount: 0)
        let start = cpu()
        for _ in 0..<(runs / batch) {
            if batch == 1 { _ = try! store.insertRun(run) } else { _ = try! store.insertRuns(Array(repeating: run, count: batch)) }
        }
        print("batch \(batch): \(fmt((cpu() - start) / Double(runs / batch * batch) * 1e6)) µs CPU per run")
        try! store.close()
    }
}

if only == "import" {
    // The importers (contract §5), parse + build + validate as `POST /v1/import/{format}` runs
    // them: `taptrace-bench import [FORMAT FILE [N]]`, FORMAT as in `taptrace import`. Without
    // a file, two dumps of 20,000 lines each. The import tests check that such dumps import,
    // never how fast (decision 68).
    var inputs: [(name: String, format: ImportFormat, bytes: [UInt8])] = []
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    if arguments.count >= 2 {
        guard let format = ImportFormat(rawValue: arguments[0]) else { fatalError("FORMAT: recursive-description or appium") }
        guard let data = FileManager.default.contents(atPath: arguments[1]) else { fatalError("cannot read \(arguments[1])") }
        inputs.append((arguments[1], format, Array(data)))
    } else {
        // 20,000 views in runs of 40, each one level deeper than the one before.
        var dump = "<UIWindow: 0x1; frame = (0 0; 400 800); layer = <UIWindowLayer: 0x2>>\n"
        for k in 1..<20_000 {
            let depth = (k - 1) % 40 + 1
            dump += String(repeating: "   |", count: depth)
                + " <UIView: 0x\(String(k + 16, radix: 16)); frame = (1 1; \(400 - depth) 700); layer = <CALayer: 0x9>>\n"
        }
        inputs.append(("recursiveDescription, 20,000 lines, 40 deep", .recursiveDescription, Array(dump.utf8)))
        // A table of 6,666 cells with a label each: 20,000 lines of XML.
        var page = #"<?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication name="Bench" x="0" y="0" width="400" height="800">"#
            + #"<XCUIElementTypeWindow x="0" y="0" width="400" height="800"><XCUIElementTypeTable x="0" y="0" width="400" height="800">"# + "\n"
        for k in 0..<6_666 {
            let y = k * 44, visible = y < 800
            page += #"<XCUIElementTypeCell type="XCUIElementTypeCell" visible="\#(visible)" x="0" y="\#(y)" width="400" height="44">"# + "\n"
                + #"<XCUIElementTypeStaticText name="Row \#(k)" visible="\#(visible)" x="16" y="\#(y + 12)" width="200" height="20"/>"# + "\n"
                + "</XCUIElementTypeCell>\n"
        }
        page += "</XCUIElementTypeTable></XCUIElementTypeWindow></XCUIElementTypeApplication></AppiumAUT>\n"
        inputs.append(("Appium page source, 20,000 lines", .appium, Array(page.utf8)))
    }
    let n = Int(arguments.dropFirst(2).first ?? "") ?? 5
    for input in inputs {
        let views: Int
        do {
            views = try input.format.parse(input.bytes).scene.views.count
        } catch {
            print("\(input.name) does not import: \(error)")
            continue
        }
        let t = measure(n) { _ = try? input.format.parse(input.bytes) }
        print("\(input.name), \(input.bytes.count / 1024) KiB, \(views) views: \(t < 0.001 ? fmt(t * 1e6) + " µs" : fmt(t * 1000) + " ms") median")
    }
}

if only == nil || only == "hittest" {
    print("## hit-testing cost follows the views visited, not the scene size")
    for (rows, cols) in [(100, 99), (1000, 99), (1000, 999)] {
        let scene = try! InputDecoder.scene(Array(gridScene(rows: rows, cols: cols).utf8))
        let index = SceneIndex(validated: scene)
        for (label, point) in [("front corner", Point(Double(cols) - 0.5, Double(rows) - 0.5)),
                               ("middle", Point(Double(cols / 2) + 0.5, Double(rows / 2) + 0.5))] {
            var visited = 0
            let report = HitTestReport.run(index, point: point)
            visited = report.trace.filter { $0.selector == "hitTest:withEvent:" }.count
            let t = measure(50) { _ = HitTestReport.run(index, point: point) }
            let quiet = HitTester(index: index, knobs: Knobs())
            let tq = measure(200) { _ = quiet.windowHitTest(screenPoint: point, event: nil, passes: 1, trace: &quietRecorder) }
            print("\(index.viewCount) views, \(label): \(visited) views visited, traced \(fmt(t * 1e6)) µs, untraced \(fmt(tq * 1e6)) µs (\(fmt(tq * 1e9 / Double(visited), 0)) ns/view)")
        }
    }
}

nonisolated(unsafe) var quietRecorder = TraceRecorder(enabled: false)

if only == nil || only == "gesture" {
    print("## 10 s two-finger gesture at 120 Hz: pinch + rotation + pan inside a scroll view")
    let index = SceneIndex(validated: try! InputDecoder.scene(Array(gestureScene.utf8)))
    let records = twoFingerRecords()
    let r = TapTrace.dispatch(index, records: records)
    let t = measure(20) { _ = TapTrace.dispatch(index, records: records) }
    let te = measure(20) { _ = ResultEncoder.encode(TapTrace.dispatch(index, records: records)) }
    let states = r.recognizers.map { "\($0.id): \($0.states.count) states" }.joined(separator: ", ")
    print("\(records.count) events, \(r.trace.count) trace entries, \(r.actions.count) actions (\(states)): dispatch \(fmt(t * 1000, 2)) ms median; with JSON encoding \(fmt(te * 1000, 2)) ms")
}
