// Engine benchmarks: wall-clock figures run by hand (`taptrace-bench [MODE]`), and the
// instruction counts `bench/guard` checks (`taptrace-bench counts REQUESTS [NAME…]`).
// Figures and their meaning are in docs/performance.md.
import Foundation
import Glibc
import TapTraceCore
import TapTraceFormats
#if canImport(Glibc)
import TapTraceImport
import TapTraceStore
#endif

// MARK: runs

let only = CommandLine.arguments.dropFirst().first

if only == "counts" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    guard let requests = arguments.first else {
        print("usage: taptrace-bench counts REQUESTS-DIRECTORY [NAME…]  (REQUESTS: bench/make-scene.py's output)")
        exit(2)
    }
    do {
        try runCounted(requests: requests, names: Array(arguments.dropFirst()))
    } catch {
        print("taptrace-bench: \(error)")
        exit(2)
    }
    exit(0)
}

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
        let store = try! SQLiteTraceStore(location: .file(directory.appendingPathComponent("bench.sqlite").path))
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
    // never how fast (decision 59).
    var inputs: [(name: String, format: ImportFormat, bytes: [UInt8])] = []
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    if arguments.count >= 2 {
        guard let format = ImportFormat(rawValue: arguments[0]) else { fatalError("FORMAT: recursive-description or appium") }
        guard let data = FileManager.default.contents(atPath: arguments[1]) else { fatalError("cannot read \(arguments[1])") }
        inputs.append((arguments[1], format, Array(data)))
    } else {
        inputs.append(("recursiveDescription, 20,000 lines, 40 deep", .recursiveDescription, Array(recursiveDescriptionDump().utf8)))
        inputs.append(("Appium page source, 20,000 lines", .appium, Array(appiumPageSource().utf8)))
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
