import CCallgrind
import Foundation
import TapTraceCore
import TapTraceFormats
@_spi(Fuzzing) import TapTraceHTTP
import TapTraceImport
import TapTraceJSON
import TapTraceService
import TapTraceStore

/// A benchmark whose instructions `bench/guard` counts under callgrind and compares with its
/// threshold (`bench/Thresholds/`). `prepare` builds the inputs, which is not counted, and
/// returns the work of one iteration; the count reported is the mean per iteration.
struct CountedBenchmark {
    let name: String
    let iterations: Int
    let prepare: () throws -> () -> Void
}

/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// The benchmarks of the guard, in the order they run. Sized so that the whole run under
/// callgrind takes about a minute on two cores.
func countedBenchmarks(requests: String) -> [CountedBenchmark] {
    var list: [CountedBenchmark] = []

    list.append(CountedBenchmark(name: "decode-10k", iterations: 2) {
        let bytes = Array(gridScene(rows: 100, cols: 99).utf8)
        return { blackHole(try! InputDecoder.sceneIndex(bytes)) }
    })

    // As the service dispatches against a scene it keeps: the scene's refs written once.
    list.append(CountedBenchmark(name: "tap-1k-json", iterations: 20) {
        let index = SceneIndex(validated: try InputDecoder.scene(Array(tableScreen().utf8)))
        let refs = SceneRefsJSON(index)
        let p = Point(300 + 10 + 30, 88 + 600 + 10 + 4 + 16)
        let records = [TouchRecord(t: 0, touches: [TouchChange(id: "T1", phase: .began, at: p)]),
                       TouchRecord(t: 0.1, touches: [TouchChange(id: "T1", phase: .ended, at: p)])]
        precondition(TapTrace.dispatch(index, records: records).firstResponder?.id == "buy10", "bench scene broken")
        return { blackHole(ResultEncoder.encode(TapTrace.dispatch(index, records: records), refs: refs)) }
    })

    // "What would change it" (issue 31) on the same screen, as `taptrace why` asks it: why is
    // image10, the image view beside the tapped button, not the hit-test view, and what would
    // make it so. Ten candidates each verified by a dispatch (nine single changes, none
    // enough, then the one that combines them). Bound: 30 dispatches of the screen, 30 ×
    // tap-1k-json.
    list.append(CountedBenchmark(name: "why-changes-1k", iterations: 5) {
        let index = SceneIndex(validated: try InputDecoder.scene(Array(tableScreen().utf8)))
        let p = Point(300 + 10 + 30, 88 + 600 + 10 + 4 + 16)
        let records = [TouchRecord(t: 0, touches: [TouchChange(id: "T1", phase: .began, at: p)]),
                       TouchRecord(t: 0.1, touches: [TouchChange(id: "T1", phase: .ended, at: p)])]
        let question = WhyQuestion(.view("image10"), expect: .hit)
        let answer = try Why.answer(question, index: index, records: records)
        precondition(answer.changes.count == 1, "bench question broken")
        return { blackHole(try! Why.answer(question, index: index, records: records)) }
    })

    // The tappability audit (issue 32, item 6) of the same screen, as `taptrace audit` and
    // `POST /v1/scenes/{id}/audit` run it on a scene already indexed: 67 interactive elements
    // (60 buy buttons, 2 nav buttons, 5 tabs), 48 of the buttons below the fold of the table
    // (offscreen), 60 small targets; the JSON written.
    list.append(CountedBenchmark(name: "audit-1k", iterations: 5) {
        let index = SceneIndex(validated: try InputDecoder.scene(Array(tableScreen().utf8)))
        let audit = TappabilityAudit.run(index)
        precondition(audit.elements.count == 67 && audit.offscreen == 48 && audit.unreachable == 0 && audit.small == 60, "bench scene broken")
        return { blackHole(TappabilityAudit.run(index).json()) }
    })

    // The front corner of a grid: 3 views visited whatever the grid's size (guarded: the
    // traced hit-test of the 10k and the 1M grid must cost the same, `bench/guard`).
    for (label, rows, cols) in [("10k", 100, 99), ("1m", 1000, 999)] {
        let point = Point(Double(cols) - 0.5, Double(rows) - 0.5)
        var index: SceneIndex?
        func grid() -> SceneIndex {
            if let index { return index }
            let built = SceneIndex(validated: gridSceneValue(rows: rows, cols: cols))
            index = built
            return built
        }
        list.append(CountedBenchmark(name: "hittest-traced-\(label)", iterations: 200) {
            let index = grid()
            return { blackHole(HitTestReport.run(index, point: point).json()) }
        })
        list.append(CountedBenchmark(name: "hittest-untraced-\(label)", iterations: 2000) {
            let tester = HitTester(index: grid(), knobs: Knobs())
            return {
                var quiet = TraceRecorder(enabled: false)
                blackHole(tester.windowHitTest(screenPoint: point, event: nil, passes: 1, trace: &quiet))
            }
        })
    }

    // The keyboard (issue 35): the same screen with a text field first responder and two key
    // commands on its controller; 100 key presses, every tenth ⌘S and every tenth ⌘F (key
    // commands run before delivery), the others letters typed into the field at UIApplication
    // after climbing the chain; the result JSON written.
    list.append(CountedBenchmark(name: "keyboard-1k-json", iterations: 5) {
        let index = SceneIndex(validated: keyboardScreen())
        let records = keyboardRecords()
        let result = TapTrace.dispatch(index, records: records)
        precondition(result.actions.count == 20 && result.nonTouch?.presses.filter { $0.textInput == "search" }.count == 80,
                     "bench scene broken")
        return { blackHole(ResultEncoder.encode(TapTrace.dispatch(index, records: records))) }
    })

    list.append(CountedBenchmark(name: "gesture-two-finger-json", iterations: 1) {
        let index = SceneIndex(validated: try InputDecoder.scene(Array(gestureScene.utf8)))
        let records = twoFingerRecords()
        return { blackHole(ResultEncoder.encode(TapTrace.dispatch(index, records: records))) }
    })

    list.append(CountedBenchmark(name: "import-recursive-description-20k", iterations: 1) {
        let bytes = Array(recursiveDescriptionDump().utf8)
        return { blackHole(try! ImportFormat.recursiveDescription.parse(bytes)) }
    })
    list.append(CountedBenchmark(name: "import-appium-20k", iterations: 1) {
        let bytes = Array(appiumPageSource().utf8)
        return { blackHole(try! ImportFormat.appium.parse(bytes)) }
    })

    // The service in-process, without HTTP: bench/run's request through the routes'
    // handlers, with the runs written inline (one thread does everything).
    list.append(CountedBenchmark(name: "service-stateless-dispatch", iterations: 50) {
        let service = try InProcessService()
        let body = try service.file(requests, "dispatch.json")
        return { service.expect(200, "POST", "/v1/dispatch", body) }
    })
    list.append(CountedBenchmark(name: "service-stateless-dispatch-unique", iterations: 10) {
        let service = try InProcessService()
        // A different scene in every request (its name), made beforehand: not counted.
        let bodies = InProcessService.variants(of: try service.file(requests, "dispatch-unique.json"), count: 12)
        var n = 0
        return {
            service.expect(200, "POST", "/v1/dispatch", bodies[n])
            n += 1
        }
    })
    list.append(CountedBenchmark(name: "service-stored-dispatch", iterations: 50) {
        let service = try InProcessService()
        let scene = try service.createScene(try service.file(requests, "scene.json"))
        let body = try service.file(requests, "stored-dispatch.json")
        return { service.expect(201, "POST", "/v1/scenes/\(scene)/dispatch", body) }
    })
    list.append(CountedBenchmark(name: "service-stored-dispatch-unique", iterations: 20) {
        let service = try InProcessService()
        let scene = try service.createScene(try service.file(requests, "scene.json"))
        // A different touch id in every request, so no result is shared; made beforehand.
        let bodies = InProcessService.variants(of: try service.file(requests, "stored-dispatch-unique.json"), count: 22)
        var n = 0
        return {
            service.expect(201, "POST", "/v1/scenes/\(scene)/dispatch", bodies[n])
            n += 1
        }
    })
    // The request relay's reading of bench/run's stored dispatch as wrk sends it (decision
    // 145): what the relay's thread does per request besides moving the bytes.
    list.append(CountedBenchmark(name: "relay-check-stored-dispatch", iterations: 50) {
        let path = requests + "/stored-dispatch.json"
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        let body = Array(data)
        let request = Array(("POST /v1/scenes/s_0123456789abcdef/dispatch HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body
        let limits = RequestStreamCheck.Limits(maxHeaderBytes: 16 << 10, maxURILength: 8 << 10, maxBodyBytes: 8 << 20)
        var check = RequestStreamCheck(limits: limits, nonce: "00112233445566778899aabbccddeeff")
        var output: [UInt8] = []
        output.reserveCapacity(request.count)
        return {
            output.removeAll(keepingCapacity: true)
            let refusal = request.withUnsafeBytes { check.consume($0, into: &output) }
            precondition(refusal == nil && output.count == request.count, "bench request refused")
            blackHole(output)
        }
    })
    return list
}

/// `taptrace-bench counts REQUESTS [NAME…]`: runs the guard's benchmarks (all, or those
/// named). Under `valgrind --tool=callgrind --instr-atstart=no` each one's iterations are
/// counted alone and dumped with the label `NAME ITERATIONS`; otherwise it prints wall-clock
/// medians per iteration.
func runCounted(requests: String, names: [String]) throws {
    let all = countedBenchmarks(requests: requests)
    let unknown = names.filter { name in !all.contains { $0.name == name } }
    guard unknown.isEmpty else {
        throw BenchError("unknown benchmark \(unknown.joined(separator: ", ")); known: \(all.map(\.name).joined(separator: ", "))")
    }
    let underValgrind = taptrace_running_on_valgrind() != 0
    for benchmark in all where names.isEmpty || names.contains(benchmark.name) {
        let body = try benchmark.prepare()
        // Warm-up, not counted: caches filled, tables built once per process, allocator pools.
        body()
        body()
        if underValgrind {
            taptrace_callgrind_start_instrumentation()
            taptrace_callgrind_zero_stats()
            for _ in 0..<benchmark.iterations { body() }
            taptrace_callgrind_dump_stats_at("\(benchmark.name) \(benchmark.iterations)")
            taptrace_callgrind_stop_instrumentation()
            print("counted \(benchmark.name) (\(benchmark.iterations) iterations)")
        } else {
            let t = measure(max(3, benchmark.iterations)) { body() }
            print("\(benchmark.name): \(fmt(t * 1e6)) µs per iteration (median)")
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The service with an in-memory store, called through its router as the HTTP server calls
/// it; deferred responses complete on the calling thread (`RunWriting.inline`).
struct InProcessService {
    let router: Router

    init() throws {
        router = TapTraceService(store: try SQLiteTraceStore(location: .inMemory), runWriting: .inline).router()
    }

    func file(_ directory: String, _ name: String) throws -> [UInt8] {
        let path = directory + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        return Array(data)
    }

    func respond(_ method: String, _ target: String, _ body: [UInt8]) -> HTTPResponse {
        let request = HTTPRequest(method: method, target: target,
                                  headers: ["Content-Type": "application/json"], body: body)
        guard case .found(let handler, let parameters) = router.resolve(method: method, rawPath: request.rawPath) else {
            fatalError("no route for \(method) \(target)")
        }
        var response = handler(request, parameters)
        if let work = response.deferredWork {
            let box = ResponseBox()
            work { box.response = $0 }
            guard let answered = box.response else { fatalError("\(method) \(target) did not answer inline") }
            response = answered
        }
        if let build = response.bodyBuilder { response.body = build() }
        return response
    }

    /// Answers the request and checks its status (the work measured is what a client gets).
    func expect(_ status: Int, _ method: String, _ target: String, _ body: [UInt8]) {
        let response = respond(method, target, body)
        precondition(response.status == status,
                     "\(method) \(target): \(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))")
        blackHole(response.body)
    }

    /// Stores a scene and returns its id.
    func createScene(_ document: [UInt8]) throws -> String {
        let response = respond("POST", "/v1/scenes", document)
        guard response.status == 201 else { throw BenchError("POST /v1/scenes: \(response.status)") }
        let tape = try JSONTape(parsing: response.body)
        guard let id = tape.member(tape.root, "id").flatMap({ tape.string($0) }) else {
            throw BenchError("POST /v1/scenes answered no id")
        }
        return id
    }

    /// `count` copies of `bytes` with `__UNIQUE__` replaced by u0, u1, … (as bench/wrk.lua does).
    static func variants(of bytes: [UInt8], count: Int) -> [[UInt8]] {
        (0..<count).map { replacing("__UNIQUE__", with: "u\($0)", in: bytes) }
    }

    static func replacing(_ marker: String, with value: String, in bytes: [UInt8]) -> [UInt8] {
        let m = Array(marker.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            if bytes[i] == m[0], i + m.count <= bytes.count, Array(bytes[i..<(i + m.count)]) == m {
                out.append(contentsOf: value.utf8)
                i += m.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}

final class ResponseBox: @unchecked Sendable {
    var response: HTTPResponse?
}
