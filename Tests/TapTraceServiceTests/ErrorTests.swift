import Foundation
import Testing

/// Every failure is application/problem+json, and a rejected request stores nothing.
@Suite struct ErrorTests {
    @Test func malformedJSONIs400WithLineAndColumn() throws {
        try withServer { server in
            let client = try server.client()
            let response = try client.call("POST", "/v1/scenes", body: Array("{\n  \"format\": }".utf8))
            let problem = try response.problem(400)
            #expect(problem.int("line") == 2)
            #expect(problem.int("column") != nil)
            try client.call("POST", "/v1/dispatch", body: []).problem(400)
            try client.call("POST", "/v1/scenes/scn_aaaaaaaaaaaa/replay", body: Array("[".utf8)).problem(400)
            #expect(try client.call("GET", "/v1/scenes").object().array("items").isEmpty)
        }
    }

    @Test func onlyJSONBodiesAreAccepted() throws {
        try withServer { server in
            let client = try server.client()
            let scene = try Fixtures.checkoutScene()
            try client.call("POST", "/v1/scenes", body: scene, headers: [("Content-Type", "text/plain")]).problem(415)
            try client.call("POST", "/v1/scenes", body: scene, headers: []).problem(415)
            try client.call("POST", "/v1/scenes", body: scene,
                            headers: [("Content-Type", "application/json; charset=latin1")]).problem(415)
            try client.call("POST", "/v1/dispatch", body: try Paths.example("checkout.request.json"),
                            headers: [("Content-Type", "application/xml")]).problem(415)
            #expect(try client.call("GET", "/v1/scenes").object().array("items").isEmpty)
            let utf8 = try client.call("POST", "/v1/scenes", body: scene,
                                       headers: [("Content-Type", "Application/JSON; charset=UTF-8")])
            #expect(utf8.status == 201)
        }
    }

    @Test func validationListsEveryIssueWithItsPointer() throws {
        try withServer { server in
            let client = try server.client()
            var scene = try JSONSerialization.jsonObject(with: Data(try Fixtures.checkoutScene())) as! [String: Any]
            var windows = scene["windows"] as! [[String: Any]]
            windows[0]["userInteractionEnable"] = false  // a typo
            windows[0]["alpha"] = 7                        // out of range
            scene["windows"] = windows
            let response = try client.call("POST", "/v1/scenes", json: scene)
            let problem = try response.problem(422)
            #expect(Set(try response.pointers()) == ["/windows/0/userInteractionEnable", "/windows/0/alpha"])
            let detail = (problem["errors"] as? [[String: Any]])?.first { $0.string("pointer") == "/windows/0/userInteractionEnable" }
            #expect(detail?.string("detail")?.contains("userInteractionEnabled") == true)
            #expect(try client.call("GET", "/v1/scenes").object().array("items").isEmpty)

            let request = try client.call("POST", "/v1/dispatch", json: ["scene": scene])
            try request.problem(422)
            #expect(try request.pointers().contains("/touches"))
        }
    }

    @Test func unknownPathsAndMethods() throws {
        try withServer { server in
            let client = try server.client()
            // `GET /` is the trace viewer (ViewerEndpointTests); paths beside the API are not.
            try client.call("GET", "/v1").problem(404)
            try client.call("GET", "/index.html").problem(404)
            try client.call("GET", "/v2/scenes").problem(404)
            let wrong = try client.call("PATCH", "/v1/scenes")
            try wrong.problem(405)
            #expect(wrong.header("Allow") == "GET, HEAD, OPTIONS, POST")
            let wrongRun = try client.call("DELETE", "/v1/runs/run_aaaaaaaaaaaa")
            try wrongRun.problem(405)
            #expect(wrongRun.header("Allow") == "GET, HEAD, OPTIONS")
            let options = try client.call("OPTIONS", "/v1/scenes/scn_aaaaaaaaaaaa")
            #expect(options.status == 204)
            #expect(options.header("Allow") == "DELETE, GET, HEAD, OPTIONS, PATCH, PUT")
        }
    }

    @Test func oversizedBodiesAre413AndStoreNothing() throws {
        try withServer(extraArguments: ["--body-limit", "2K"]) { server in
            let client = try server.client()
            let big = try client.call("POST", "/v1/scenes", body: try Fixtures.checkoutScene())
            try big.problem(413)
            #expect(try server.client().call("GET", "/v1/scenes").object().array("items").isEmpty)
            // Within the limit works.
            let small = #"{"format":"taptrace/scene@1","windows":[{"id":"W","class":"UIWindow","frame":[0,0,10,10]}]}"#
            #expect(try server.client().call("POST", "/v1/scenes", body: Array(small.utf8)).status == 201)
        }
    }
}
