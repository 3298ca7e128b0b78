import Foundation
import TapTraceHTTP
@testable import TapTraceService
import TapTraceStore
import TestSupport
import Testing

/// What one request may cost, over HTTP against `taptrace serve` (issue 34, item 1, and the
/// time budget of item 2): each limit refused with a `limit-exceeded` problem (422) that names
/// the limit, its value, the size and the flag and variable that raise it; past the time budget
/// a `time-budget-exceeded` problem (503, `Retry-After`); nothing stored for a refused request.
@Suite(.serialized) struct RequestLimitEndpointTests {
    static var scene: [String: Any] { [
        "format": "taptrace/scene@1",
        "windows": [["id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844],
                     "subviews": [["id": "V", "class": "TouchView", "frame": [20, 100, 200, 200],
                                   "overrides": ["touches": "handle"]]]]],
    ] }

    /// A scene of W and `views` subviews of it.
    static func scene(views: Int) -> [String: Any] {
        ["format": "taptrace/scene@1",
         "windows": [["id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844],
                      "subviews": (0..<views).map { ["id": "v\($0)", "class": "UIView", "frame": [0, 0, 100, 100 + $0]] }]]]
    }

    static func drag(steps: Int) -> [String: Any] {
        ["drag": ["from": [50, 150], "to": [150, 250]], "steps": steps]
    }

    static func touches(_ gestures: [[String: Any]]) -> [String: Any] { ["gestures": gestures] }

    static var tap: [String: Any] { ["tap": [50, 150]] }
    static var doubleTap: [String: Any] { ["doubleTap": [50, 150]] }

    /// The problem's `limit` member, after checking the problem is a limit's.
    @discardableResult
    static func limit(_ response: RawHTTPClient.Response, _ name: String, maximum: Int? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let problem = try response.problem(422, sourceLocation: sourceLocation)
        #expect(problem.string("type") == "https://taptrace.dev/problems/limit-exceeded", sourceLocation: sourceLocation)
        let limit = try #require(problem.object("limit"), sourceLocation: sourceLocation)
        #expect(limit.string("name") == name, sourceLocation: sourceLocation)
        if let maximum { #expect(limit.int("maximum") == maximum, sourceLocation: sourceLocation) }
        let flag = "--max-" + name
        #expect(limit.string("flag") == flag, sourceLocation: sourceLocation)
        let variable = "TAPTRACE_MAX_" + name.uppercased().replacingOccurrences(of: "-", with: "_")
        #expect(limit.string("environmentVariable") == variable, sourceLocation: sourceLocation)
        let detail = problem.string("detail") ?? ""
        #expect(detail.contains(flag) && detail.contains(variable), sourceLocation: sourceLocation)
        return limit
    }

    static func runCount(_ client: RawHTTPClient, _ sceneID: String) throws -> Int {
        try client.allItems("/v1/scenes/\(sceneID)/runs", limit: 100).count
    }

    // MARK: records

    /// The issue's amplification: ten drags of a million steps in one small request. With the
    /// defaults it is refused, naming the limit; a thousand of them (a billion records, about
    /// a hundred gigabytes expanded) are refused the same way, so the count is made before
    /// anything is expanded.
    @Test func theIssuesDragsAreRefusedBeforeTheWork() throws {
        try withServer { server in
            let client = try server.client()
            let ten = Array(repeating: Self.drag(steps: 1_000_000), count: 10)
            let body = try JSONSerialization.data(withJSONObject: ["scene": Self.scene, "touches": Self.touches(ten)])
            #expect(body.count < 1000)
            let refused = try client.call("POST", "/v1/dispatch", body: Array(body))
            let limit = try Self.limit(refused, "records", maximum: 20_000)
            #expect(limit.int("size") == 10_000_020)
            #expect(try refused.object().string("pointer") == "/touches")

            let thousand = Array(repeating: Self.drag(steps: 1_000_000), count: 1000)
            let absurd = try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": Self.touches(thousand)])
            #expect(try Self.limit(absurd, "records").int("size") == 1_000_002_000)

            // Stored: refused alike, nothing stored.
            let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene)))
            let stored = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": Self.touches(ten)])
            try Self.limit(stored, "records")
            #expect(try Self.runCount(client, id) == 0)
            #expect(try client.call("GET", "/health").status == 200)
        }
    }

    /// The issue's key-count input: one object of 80,000 keys (under 1 MB) cost 18 s of CPU
    /// when each key was compared with every earlier one. Now it is refused at once, with its
    /// errors capped and counted; the same keys repeated are found as fast.
    @Test func anObjectOfEightyThousandKeysIsRefusedQuickly() throws {
        try withServer { server in
            let client = try server.client()
            for repeated in [false, true] {
                var body = #"{"scene":{"format":"taptrace/scene@1","windows":[]"#
                for k in 0..<80_000 { body += repeated ? #","k":0"# : #","key\#(k)":0"# }
                body += #"},"touches":{"gestures":[]}}"#
                let start = Date()
                let refused = try client.call("POST", "/v1/dispatch", body: Array(body.utf8))
                let seconds = Date().timeIntervalSince(start)
                #expect(refused.status == 422, "\(refused.bodyText.prefix(300))")
                #expect(try refused.object()["omittedErrors"] as? Int ?? 0 > 0)
                // The quadratic check took minutes in a debug build.
                #expect(seconds < 10, "\(seconds) s for 80,000 keys (repeated: \(repeated))")
            }
            #expect(try client.call("GET", "/health").status == 200)
        }
    }

    /// `--max-records` and TAPTRACE_MAX_RECORDS set the limit; why and check requests are held
    /// to it too (a check's cases together).
    @Test func theRecordsLimitComesFromTheFlagOrTheVariable() throws {
        for (arguments, environment) in [(["--max-records", "3"], [String: String]()), ([], ["TAPTRACE_MAX_RECORDS": "3"])] {
            try withServer(extraArguments: arguments, environment: environment) { server in
                let client = try server.client()
                #expect(try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": Self.touches([Self.tap])]).status == 200)
                let refused = try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": Self.touches([Self.doubleTap])])
                #expect(try Self.limit(refused, "records", maximum: 3).int("size") == 4)
                let why = try client.call("POST", "/v1/why", json: ["scene": Self.scene, "touches": Self.touches([Self.doubleTap]),
                                                                   "view": "V"])
                try Self.limit(why, "records", maximum: 3)
                let one: [String: Any] = ["scene": Self.scene, "touches": Self.touches([Self.tap]), "expect": ["firstResponder": NSNull()]]
                #expect(try client.call("POST", "/v1/check", json: ["cases": [one]]).status == 200)
                try Self.limit(try client.call("POST", "/v1/check", json: ["cases": [one, one]]), "records", maximum: 3)
            }
        }
    }

    // MARK: views

    /// `--max-views`: uploads (POST, PUT, PATCH, imports), stateless dispatch and audits of a
    /// larger scene are refused, and no version is stored.
    @Test func scenesPastTheViewsLimitAreRefusedEverywhere() throws {
        try withServer(extraArguments: ["--max-views", "3"]) { server in
            let client = try server.client()
            let small = Self.scene(views: 2), big = Self.scene(views: 3)
            let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: small)))
            let limit = try Self.limit(try client.call("POST", "/v1/scenes", json: big), "views", maximum: 3)
            #expect(limit.int("size") == 4)
            try Self.limit(try client.call("PUT", "/v1/scenes/\(id)", json: big), "views")
            let patch: [[String: Any]] = [["op": "add", "path": "/windows/0/subviews/-",
                                           "value": ["id": "extra", "class": "UIView", "frame": [0, 0, 1, 1]]]]
            let patched = try client.call("PATCH", "/v1/scenes/\(id)", body: Array(try JSONSerialization.data(withJSONObject: patch)),
                                          headers: [("Content-Type", "application/json-patch+json")])
            try Self.limit(patched, "views")
            #expect(try client.call("GET", "/v1/scenes/\(id)").object().int("latestVersion") == 1)
            let stateless = try client.call("POST", "/v1/dispatch", json: ["scene": big, "touches": Self.touches([Self.tap])])
            try Self.limit(stateless, "views")
            #expect(try stateless.object().string("pointer") == "/scene")
            try Self.limit(try client.call("POST", "/v1/audit", json: big), "views")
            let dump = try client.call("POST", "/v1/import/recursive-description?store=true", body: try Paths.example("detail.dump.txt"),
                                       headers: [("Content-Type", "text/plain")])
            try Self.limit(dump, "views", maximum: 3)
            #expect(try client.call("GET", "/v1/scenes").object().array("items").count == 1)
        }
    }

    // MARK: trace entries and answers

    /// `--max-trace-entries`: a run whose trace passes the limit is stopped and refused whole
    /// (a harness must not get a truncated trace that looks complete); stored, nothing is kept.
    @Test func aRunPastTheTraceLimitIsRefusedWhole() throws {
        try withServer(extraArguments: ["--max-trace-entries", "40"]) { server in
            let client = try server.client()
            #expect(try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": Self.touches([Self.tap])]).status == 200)
            let refused = try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": Self.touches([Self.drag(steps: 100)])])
            let limit = try Self.limit(refused, "trace-entries", maximum: 40)
            #expect(limit["sizeIsLowerBound"] as? Bool == true)
            #expect((limit.int("size") ?? 0) > 40)
            let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene)))
            try Self.limit(try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": Self.touches([Self.drag(steps: 100)])]),
                           "trace-entries")
            #expect(try Self.runCount(client, id) == 0)
        }
    }

    /// `--max-response-bytes` (K, M, G suffixes): an answer larger than the limit is refused,
    /// and a stored dispatch's result is held to it before it is stored.
    @Test func anAnswerPastTheResponseLimitIsRefusedAndNotStored() throws {
        try withServer(extraArguments: ["--max-response-bytes", "4K"]) { server in
            let client = try server.client()
            let touches = Self.touches([Self.drag(steps: 100)])
            let limit = try Self.limit(try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": touches]),
                                       "response-bytes", maximum: 4096)
            #expect((limit.int("size") ?? 0) > 4096)
            let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene)))
            try Self.limit(try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": touches]), "response-bytes")
            #expect(try Self.runCount(client, id) == 0)
        }
    }

    /// Runs stored before a lower limit applied: exports, compare and replay check a stored
    /// result's bytes (`--max-read-bytes`) before decoding it; reading a run back is held to
    /// the answer limit. Nothing of a refused replay is stored.
    @Test func storedResultsAreHeldToTheReadAndAnswerLimits() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var id = "", runs: [String] = []
        do {
            let server = try ServerProcess(database: directory.databasePath)
            defer { server.stop() }
            let client = try server.client()
            id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene)))
            for steps in [30, 40] {
                let run = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": Self.touches([Self.drag(steps: steps)])])
                #expect(run.status == 201)
                runs.append(try #require(try run.object().string("id")))
            }
        }
        do {
            let server = try ServerProcess(database: directory.databasePath, extraArguments: ["--max-read-bytes", "1K"])
            defer { server.stop() }
            let client = try server.client()
            for target in ["/v1/runs/\(runs[0])?format=text", "/v1/runs/\(runs[0])?format=chrome", "/v1/runs/\(runs[0])/compare/\(runs[1])"] {
                let refused = try client.call("GET", target)
                try Self.limit(refused, "read-bytes", maximum: 1024)
                #expect(try refused.object().string("detail")?.contains(runs[0]) == true, "\(target)")
            }
            try Self.limit(try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1]), "read-bytes")
            #expect(try Self.runCount(client, id) == 2)
            // The JSON answer copies the stored bytes without decoding them.
            #expect(try client.call("GET", "/v1/runs/\(runs[0])").status == 200)
        }
        do {
            let server = try ServerProcess(database: directory.databasePath, extraArguments: ["--max-response-bytes", "1K"])
            defer { server.stop() }
            let client = try server.client()
            try Self.limit(try client.call("GET", "/v1/runs/\(runs[0])"), "response-bytes", maximum: 1024)
            try Self.limit(try client.call("GET", "/v1/runs/\(runs[0])?format=text"), "response-bytes")
        }
        do {
            let server = try ServerProcess(database: directory.databasePath, extraArguments: ["--max-records", "10"])
            defer { server.stop() }
            let client = try server.client()
            // A stored request past the records limit is not dispatched again.
            let replay = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1])
            try Self.limit(replay, "records", maximum: 10)
            let why = try client.call("POST", "/v1/runs/\(runs[0])/why", json: ["view": "V"])
            try Self.limit(why, "records")
            #expect(try Self.runCount(client, id) == 2)
        }
    }

    // MARK: geometry

    /// The geometry answer is paged at `--max-geometry-views`: every view once, in document
    /// order, over the pages `nextCursor` links; `limit` above the maximum and cursors not
    /// handed out are 400.
    @Test func geometryIsPaged() throws {
        try withServer(extraArguments: ["--max-geometry-views", "3"]) { server in
            let client = try server.client()
            let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene(views: 6))))
            var ids: [String] = [], cursors: [String] = []
            var cursor: String?
            repeat {
                let page = try client.call("GET", "/v1/scenes/\(id)/geometry" + (cursor.map { "?cursor=\($0)" } ?? "")).object()
                #expect(page.int("viewCount") == 7)
                #expect(page.array("views").count <= 3)
                #expect(page["windows"] as? [String] == ["W"])
                ids += page.array("views").compactMap { $0.string("id") }
                cursor = page.string("nextCursor")
                if let cursor { cursors.append(cursor) }
            } while cursor != nil
            #expect(ids == ["W"] + (0..<6).map { "v\($0)" })
            #expect(cursors.count == 2)
            #expect(try client.call("GET", "/v1/scenes/\(id)/geometry?limit=2").object().array("views").count == 2)
            try client.call("GET", "/v1/scenes/\(id)/geometry?limit=4").problem(400)
            for bad in ["99", "0", "x"] { try client.call("GET", "/v1/scenes/\(id)/geometry?cursor=\(bad)").problem(400) }
        }
    }

    // MARK: time

    /// Past `--request-time-budget` (or TAPTRACE_REQUEST_TIME_BUDGET) a request's work stops
    /// and it answers 503 with `Retry-After`; nothing is stored.
    @Test func aRequestPastItsTimeBudgetIsStopped() throws {
        // 20,000 records, the most the defaults allow: seconds of work in a debug build.
        let heavy = Self.touches([Self.drag(steps: 19_998)])
        for (arguments, environment) in [(["--request-time-budget", "0.001"], [String: String]()),
                                         ([], ["TAPTRACE_REQUEST_TIME_BUDGET": "0.001"])] {
            try withServer(extraArguments: arguments, environment: environment) { server in
                let client = try RawHTTPClient(port: server.port, timeoutSeconds: 120)
                let refused = try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": heavy])
                let problem = try refused.problem(503)
                #expect(problem.string("type") == "https://taptrace.dev/problems/time-budget-exceeded")
                #expect(problem.string("detail")?.contains("--request-time-budget") == true)
                #expect(refused.header("Retry-After") == "1")
                let id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene)))
                try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": heavy]).problem(503)
                #expect(try Self.runCount(client, id) == 0)
            }
        }
        // Without a budget the same request is answered.
        try withServer(extraArguments: ["--request-time-budget", "off"]) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 120)
            #expect(try client.call("POST", "/v1/dispatch", json: ["scene": Self.scene, "touches": heavy]).status == 200)
        }
    }

    /// A replay's runs share one budget: past it the replay stops and stores nothing.
    @Test func aReplayPastItsTimeBudgetStoresNothing() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var id = ""
        do {
            let server = try ServerProcess(database: directory.databasePath)
            defer { server.stop() }
            let client = try server.client()
            id = try client.createScene(Array(try JSONSerialization.data(withJSONObject: Self.scene)))
            for _ in 0..<3 {
                #expect(try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": Self.touches([Self.drag(steps: 2000)])]).status == 201)
            }
        }
        let server = try ServerProcess(database: directory.databasePath, extraArguments: ["--request-time-budget", "0.001"])
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 120)
        let replay = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1])
        try replay.problem(503)
        #expect(replay.header("Retry-After") == "1")
        #expect(try Self.runCount(client, id) == 3)
    }

    /// Values that are not limits stop `serve` before it listens.
    @Test func invalidLimitsAreRefusedAtStart() throws {
        for arguments in [["--max-records", "0"], ["--max-views", "many"], ["--max-response-bytes", "12X"],
                          ["--request-time-budget", "0"], ["--request-time-budget", "-1"]] {
            let bad = Process()
            bad.executableURL = try ServerProcess.binary()
            bad.arguments = ["serve", "--port", "0", "--db", ":memory:"] + arguments
            let stderr = Pipe()
            bad.standardError = stderr
            bad.standardOutput = Pipe()
            try bad.run()
            let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            bad.waitUntilExit()
            #expect(bad.terminationStatus != 0, "\(arguments)")
            #expect(message.contains(arguments[0]), "\(arguments): \(message)")
        }
    }

    // MARK: a 100,001-view scene

    /// The grid of `bench/taptrace-bench` (100 rows of 999 cells: 100,001 views, 5.3 MB of
    /// compact JSON) is admitted by the defaults: stored, dispatched against, and its geometry
    /// read in pages.
    static func grid(rows: Int = 100, cols: Int = 999) -> [UInt8] {
        var s = #"{"format":"taptrace/scene@1","windows":[{"id":"W","class":"UIWindow","frame":[0,0,\#(cols),\#(rows)],"subviews":["#
        for row in 0..<rows {
            if row > 0 { s += "," }
            s += #"{"id":"r\#(row)","class":"UIView","frame":[0,\#(row),\#(cols),1],"subviews":["#
            s += (0..<cols).map { #"{"id":"c\#(row)_\#($0)","class":"UIView","frame":[\#($0),0,1,1]}"# }.joined(separator: ",")
            s += "]}"
        }
        return Array((s + "]}]}").utf8)
    }

    @Test func aSceneOf100001ViewsIsAdmittedByTheDefaults() throws {
        let grid = Self.grid()
        #expect(grid.count > 5_000_000 && grid.count < 8 << 20)
        try withServer { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 300)
            let created = try client.call("POST", "/v1/scenes", body: grid)
            #expect(created.status == 201, "\(created.bodyText.prefix(300))")
            let id = try #require(try created.object().string("id"))
            #expect(try created.object().object("counts")?.int("views") == 100_001)
            for point in [[0, 0], [500, 50]] {
                let run = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["touches": Self.touches([["tap": point]])])
                #expect(run.status == 201, "\(run.bodyText.prefix(300))")
            }
            let first = try client.call("GET", "/v1/scenes/\(id)/geometry").object()
            #expect(first.int("viewCount") == 100_001)
            #expect(first.array("views").count == 20_000)
            #expect(first.string("nextCursor") == "20000")
            let last = try client.call("GET", "/v1/scenes/\(id)/geometry?cursor=100000").object()
            #expect(last.array("views").map { $0.string("id") } == ["c99_998"])
            #expect(last["nextCursor"] is NSNull)
        }
    }
}

/// The same scene in-process, where the cache can be seen: with the service's defaults, its
/// index stays cached from the upload on, so stored work on it does not decode and index it
/// again.
@Suite struct LargeSceneCacheTests {
    final class Answer: @unchecked Sendable { var response: HTTPResponse? }

    static func respond(_ router: Router, _ method: String, _ target: String, _ body: [UInt8]) -> HTTPResponse {
        let request = HTTPRequest(method: method, target: target, headers: ["Content-Type": "application/json"], body: body)
        guard case .found(let handler, let parameters) = router.resolve(method: method, rawPath: request.rawPath) else {
            Issue.record("no route for \(method) \(target)")
            return HTTPResponse(status: 0)
        }
        var response = handler(request, parameters)
        if let work = response.deferredWork {
            let answer = Answer()
            work { answer.response = $0 }
            response = answer.response ?? HTTPResponse(status: 0)
        }
        if let build = response.bodyBuilder { response.body = build() }
        return response
    }

    @Test func aSceneOf100001ViewsStaysIndexed() throws {
        let service = TapTraceService(store: try SQLiteTraceStore(location: .inMemory), runWriting: .inline)
        let router = service.router()
        let created = Self.respond(router, "POST", "/v1/scenes", RequestLimitEndpointTests.grid())
        #expect(created.status == 201, "\(String(decoding: created.body.prefix(300), as: UTF8.self))")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])
        let id = try #require(object["id"] as? String)
        let key = StoredSceneKey(sceneID: id, version: 1)
        #expect(service.scenes.get(key)?.index.viewCount == 100_001)
        let tap = Array(#"{"touches": {"gestures": [{"tap": [500, 50]}]}}"#.utf8)
        for _ in 0..<3 {
            let misses = service.scenes.misses
            #expect(Self.respond(router, "POST", "/v1/scenes/\(id)/dispatch", tap).status == 201)
            #expect(service.scenes.misses == misses, "the scene was decoded and indexed again")
        }
    }
}
