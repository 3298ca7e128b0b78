import Foundation
import TestSupport
import Testing

/// Stateless and stored dispatch, hit-test and explain.
@Suite struct DispatchEndpointTests {
    /// What `taptrace dispatch` prints for a request file (the service must answer the same).
    static func cliResult(_ example: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = try ServerProcess.binary()
        process.arguments = ["dispatch", Paths.packageRoot.appendingPathComponent("examples/\(example)").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var bytes = Array(data)
        if bytes.last == 0x0A { bytes.removeLast() }
        return bytes
    }

    @Test(arguments: ["checkout.request.json", "overlay.request.json", "tabbar.request.json"])
    func statelessDispatchAnswersWhatTheCLIPrints(_ example: String) throws {
        try withServer { server in
            let response = try server.client().call("POST", "/v1/dispatch", body: try Paths.example(example))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.body == (try Self.cliResult(example)))
            // Stateless: nothing was stored.
            #expect(try server.client().call("GET", "/v1/scenes").object().array("items").isEmpty)
        }
    }

    @Test func storedDispatchAnswersWithTheRun() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let response = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: try Fixtures.storedDispatchBody())
            #expect(response.status == 201)
            // The answer is the run, as GET /v1/runs/{id} reads it (one shape for a run).
            let run = try response.object()
            let result = try #require(run.object("result"))
            #expect(result.string("format") == "taptrace/result@1")
            #expect(result.object("firstResponder")?.string("id") == "buyButton")
            #expect(result.array("actions").map { $0.string("action") } == ["buyTapped:"])
            let runID = try #require(run.string("id"))
            #expect(runID.hasPrefix("run_"))
            #expect(run.int("sceneVersion") == 1)
            #expect(run.string("sceneId") == id)
            #expect(run.string("createdAt")?.hasSuffix("Z") == true)
            #expect(NSDictionary(dictionary: try #require(run.object("firstResponder"))).isEqual(to: try #require(result.object("firstResponder"))))
            #expect(response.header("Location") == "/v1/runs/\(runID)")
            #expect(response.bodyText == (try client.call("GET", "/v1/runs/\(runID)").bodyText))

            // The same result as the stateless path, member for member.
            let stateless = try client.call("POST", "/v1/dispatch", body: try Paths.example("checkout.request.json")).object()
            #expect(NSDictionary(dictionary: result).isEqual(to: stateless))

            // Knobs and an explicit version are honoured.
            let v2 = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene())
            #expect(v2.status == 200)
            let onV1 = try client.call("POST", "/v1/scenes/\(id)/dispatch",
                                       json: ["touches": try Fixtures.checkoutTouches(), "version": 1,
                                              "knobs": ["hitTestPasses": 2]]).object()
            #expect(onV1.int("sceneVersion") == 1)
            #expect(onV1.object("result")?.object("knobs")?.int("hitTestPasses") == 2)
            let onLatest = try client.storeDispatch(id)
            #expect(onLatest.int("sceneVersion") == 2)
            #expect(onLatest.object("firstResponder")?.string("id") == "card")
        }
    }

    @Test func storedDispatchValidatesItsBody() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let missing = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: ["knobs": [:] as [String: Any]])
            try missing.problem(422)
            #expect(try missing.pointers() == ["/touches"])
            let typo = try client.call("POST", "/v1/scenes/\(id)/dispatch",
                                       json: ["touches": try Fixtures.checkoutTouches(), "verison": 1])
            try typo.problem(422)
            #expect(try typo.pointers() == ["/verison"])
            let noVersion = try client.call("POST", "/v1/scenes/\(id)/dispatch",
                                            json: try Fixtures.storedDispatchBody(version: 7))
            try noVersion.problem(422)
            #expect(try noVersion.pointers() == ["/version"])
            let badTouch = try client.call("POST", "/v1/scenes/\(id)/dispatch",
                                           json: ["touches": ["format": "taptrace/touches@1",
                                                              "events": [["t": 0, "touches": [["id": "T1", "phase": "ended", "at": [1, 2]]]]]]])
            try badTouch.problem(422)
            #expect(try badTouch.pointers().allSatisfy { $0.hasPrefix("/touches") })
            let badKnob = try client.call("POST", "/v1/scenes/\(id)/dispatch",
                                          json: ["touches": try Fixtures.checkoutTouches(), "knobs": ["hitTestPasses": 3]])
            #expect(try badKnob.problem(422).isEmpty == false)
            #expect(try badKnob.pointers() == ["/knobs/hitTestPasses"])
            try client.call("POST", "/v1/scenes/scn_aaaaaaaaaaaa/dispatch", json: try Fixtures.storedDispatchBody()).problem(404)
            try client.call("POST", "/v1/scenes/nonsense/dispatch", json: try Fixtures.storedDispatchBody()).problem(404)
            // None of the rejected requests stored a run.
            #expect(try client.call("GET", "/v1/scenes/\(id)/runs").object().array("items").isEmpty)
        }
    }

    @Test func hitTestAndExplain() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Paths.example("overlay.scene.json"))
            let hit = try client.call("POST", "/v1/scenes/\(id)/hit-test", json: ["point": [195, 625]])
            #expect(hit.status == 200)
            let report = try hit.object()
            #expect(report.string("sceneId") == id)
            #expect(report.int("sceneVersion") == 1)
            #expect(report.object("hitTestView")?.string("id") == "playButton")
            #expect(report.array("path").map { $0.string("id")! } == ["W", "root", "playButton"])
            #expect(report.array("trace").contains { $0.string("selector") == "hitTest:withEvent:" })
            let outside = try client.call("POST", "/v1/scenes/\(id)/hit-test", json: ["point": [-5, -5]]).object()
            #expect(outside["hitTestView"] is NSNull)

            let why = try client.call("POST", "/v1/scenes/\(id)/explain",
                                      json: ["point": [195, 625], "target": "gradientOverlay"])
            #expect(why.status == 200)
            let explanation = try why.object()
            #expect(explanation["isHitTestView"] as? Bool == false)
            #expect(explanation.object("hitTestView")?.string("id") == "playButton")
            #expect(!explanation.array("reasons").isEmpty)
            #expect(explanation.array("reasons").allSatisfy { ($0.string("rule") ?? "").isEmpty == false })

            let unknown = try client.call("POST", "/v1/scenes/\(id)/explain", json: ["point": [1, 2], "target": "nope"])
            try unknown.problem(422)
            #expect(try unknown.pointers() == ["/target"])
            let incomplete = try client.call("POST", "/v1/scenes/\(id)/explain", json: ["point": [1]])
            try incomplete.problem(422)
            #expect(Set(try incomplete.pointers()) == ["/point", "/target"])
            try client.call("POST", "/v1/scenes/\(id)/hit-test", json: ["point": [1, 2], "version": 3]).problem(422)
        }
    }

    /// Stored dispatch remembers each scene's latest version instead of reading it per request;
    /// a version added by another server on the same database must still be the one used.
    @Test func aVersionAddedByAnotherProcessIsUsedAtOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let a = try ServerProcess(database: directory.databasePath)
        defer { a.stop() }
        let b = try ServerProcess(database: directory.databasePath)
        defer { b.stop() }
        let clientA = try a.client(), clientB = try b.client()
        let id = try clientA.createScene(try Fixtures.checkoutScene())
        #expect(try clientA.storeDispatch(id).int("sceneVersion") == 1)  // A now knows "latest = 1"
        #expect(try clientB.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene()).status == 200)
        let after = try clientA.storeDispatch(id)
        #expect(after.int("sceneVersion") == 2)
        #expect(after.object("firstResponder")?.string("id") == "card")
        // And a scene deleted elsewhere is gone for A too.
        #expect(try clientB.call("DELETE", "/v1/scenes/\(id)").status == 204)
        try clientA.call("POST", "/v1/scenes/\(id)/dispatch", json: try Fixtures.storedDispatchBody()).problem(404)
    }
}
