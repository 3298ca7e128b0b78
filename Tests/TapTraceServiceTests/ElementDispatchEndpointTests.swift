import Foundation
import TapTraceCore
import TapTraceFormats
@testable import TapTraceService
import TestSupport
import Testing

/// Issue 32, items 1–2 over HTTP: touches without `format` or `t`, and gestures that name an
/// element, on stateless and stored dispatch, the stateless fast path included.
@Suite struct ElementDispatchEndpointTests {
    static func scene() throws -> Any { try JSONSerialization.jsonObject(with: Data(Fixtures.checkoutScene())) }

    @Test func statelessDispatchTapsAnElement() throws {
        try withServer { server in
            let client = try server.client()
            let body: [String: Any] = ["scene": try Self.scene(), "touches": ["gestures": [["tap": ["view": "buyButton"]]]]]
            // Twice: the second answer comes from the fast path (the scene cached) and must match.
            let first = try client.call("POST", "/v1/dispatch", json: body)
            let second = try client.call("POST", "/v1/dispatch", json: body)
            #expect(first.status == 200, "\(first.bodyText.prefix(400))")
            #expect(first.body == second.body)
            let result = try first.object()
            let elements = result["elements"] as? [[String: Any]] ?? []
            #expect(elements.count == 1)
            #expect(elements.first?["gesture"] as? Int == 0)
            #expect(elements.first?["view"] as? String == "buyButton")
            #expect(elements.first?["hittable"] as? Bool == true)
            #expect(elements.first?["hitTestView"] as? String == "buyButton")
            #expect((elements.first?["reasons"] as? [Any])?.isEmpty == true)
            #expect((result["firstResponder"] as? [String: Any])?["id"] as? String == "buyButton")
            #expect((result["actions"] as? [[String: Any]])?.first?["action"] as? String != nil)
        }
    }

    @Test func anUnknownElementIsA422AtItsPointer() throws {
        try withServer { server in
            let client = try server.client()
            let body: [String: Any] = ["scene": try Self.scene(),
                                       "touches": ["gestures": [["tap": [1, 1]], ["longPress": ["view": "payButton"]]]]]
            for _ in 0..<2 {
                let response = try client.call("POST", "/v1/dispatch", json: body)
                try response.problem(422)
                #expect(try response.pointers() == ["/touches/gestures/1/longPress/view"])
            }
        }
    }

    @Test func storedDispatchAndReplayResolveElements() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let response = try client.call("POST", "/v1/scenes/\(id)/dispatch",
                                           json: ["touches": ["gestures": [["tap": ["view": "Buy now"]], ["tap": ["view": "title"]]]]])
            #expect(response.status == 201, "\(response.bodyText.prefix(400))")
            // The answer is the result with `run`, or (issue 32, item 4) the run with `result`.
            let answer = try response.object()
            let result = answer["result"] as? [String: Any] ?? answer
            let elements = result["elements"] as? [[String: Any]] ?? []
            #expect(elements.map { $0["view"] as? String } == ["buyButton", "title"])
            #expect(elements.map { $0["gesture"] as? Int } == [0, 1])
            #expect(elements.map { $0["hittable"] as? Bool } == [true, false])
            // The stored run reads back with its elements.
            let runID = try #require((answer["run"] as? [String: Any])?["id"] as? String ?? answer["id"] as? String)
            let stored = try client.call("GET", "/v1/runs/\(runID)")
            #expect(stored.status == 200)
            #expect(stored.bodyText.contains("\"elements\":[{\"gesture\":0,\"view\":\"buyButton\""))
        }
    }

    /// The fast path parses a touches member without `format` as the full decode does.
    @Test func theFastPathTakesTouchesWithoutFormat() {
        let cache = StatelessSceneCache(capacity: 4, maxViews: 10_000)
        let touches = #"{"gestures": [{"tap": [200, 600]}, {"tap": {"view": "buyButton"}}]}"#
        let bytes = StatelessFastPathTests.request(#""scene": "# + StatelessFastPathTests.scene, #""touches": "# + touches)
        #expect(!StatelessFastPathTests.agree(bytes, cache: cache))
        #expect(StatelessFastPathTests.agree(bytes, cache: cache))
    }
}
