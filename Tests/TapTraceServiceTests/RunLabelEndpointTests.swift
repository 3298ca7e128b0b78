import Foundation
import TestSupport
import Testing

/// Run labels (issue 32, item 3): `"label"` on a stored dispatch, shown in the answer, history,
/// a run, compare and replay; history filtered by `?label=`.
@Suite struct RunLabelEndpointTests {
    func labelled(_ label: String) throws -> [String: Any] {
        ["touches": try Fixtures.checkoutTouches(), "label": label]
    }

    @Test func labelsTravelWithTheRun() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let first = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: try labelled("test_buy"))
            #expect(first.status == 201)
            let run = try first.object()
            #expect(run.string("label") == "test_buy")
            let runID = try #require(run.string("id"))
            _ = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: try labelled("test_cancel"))
            _ = try client.storeDispatch(id)   // no label

            let history = try client.call("GET", "/v1/scenes/\(id)/runs").object().array("items")
            #expect(history.map { $0["label"] as? String } == [nil, "test_cancel", "test_buy"])
            let buy = try client.call("GET", "/v1/scenes/\(id)/runs?label=test_buy").object().array("items")
            #expect(buy.map { $0.string("id") } == [runID])
            #expect(try client.call("GET", "/v1/scenes/\(id)/runs?label=nobody").object().array("items").isEmpty)
            #expect(try client.call("GET", "/v1/runs/\(runID)").object().string("label") == "test_buy")

            let other = try #require(history[1].string("id"))
            let compare = try client.call("GET", "/v1/runs/\(runID)/compare/\(other)").object()
            #expect(compare.object("a")?.string("label") == "test_buy")
            #expect(compare.object("b")?.string("label") == "test_cancel")

            #expect(try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene(), headers: RawHTTPClient.json)
                .status == 200)
            let replay = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 2]).object()
            #expect(replay.array("runs").compactMap { $0["label"] as? String }.sorted() == ["test_buy", "test_cancel"])
            // Replayed runs keep their originals' labels.
            let v2 = try client.call("GET", "/v1/scenes/\(id)/runs?label=test_buy").object().array("items")
            #expect(v2.map { $0.int("sceneVersion") } == [2, 1])
        }
    }

    @Test func badLabelsAreRefused() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            for bad: Any in ["", String(repeating: "x", count: 201), 7] {
                let body: [String: Any] = ["touches": try Fixtures.checkoutTouches(), "label": bad]
                #expect(try client.call("POST", "/v1/scenes/\(id)/dispatch", json: body).pointers() == ["/label"])
            }
            #expect(try client.call("GET", "/v1/scenes/\(id)/runs").object().array("items").isEmpty)
        }
    }
}
