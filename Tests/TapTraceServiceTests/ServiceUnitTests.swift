import Foundation
import TapTraceCore
import TapTraceFormats
@testable import TapTraceService
import TapTraceJSON
import Testing

/// Pieces of the service that need no server.
@Suite struct ServiceUnitTests {
    static func index(views: Int) throws -> SceneIndex {
        var subviews: [String] = []
        for i in 0..<max(0, views - 1) {
            subviews.append(#"{"id": "v\#(i)", "class": "UIView", "frame": [0, 0, 1, 1]}"#)
        }
        let json = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 10, 10], "subviews": [\#(subviews.joined(separator: ","))]}]}"#
        return SceneIndex(validated: try InputDecoder.scene(Array(json.utf8)))
    }

    /// The replay's memory goes back to the system only if glibc's `malloc_trim` is found.
    @Test func mallocTrimIsFoundOnLinux() {
        #if os(Linux)
        #expect(MemoryRelease.isAvailable)
        MemoryRelease.afterLargeRequest()
        #endif
    }

    @Test func sceneCacheEvictsTheLeastRecentlyUsed() throws {
        let cache = SceneCache<StoredSceneKey>(capacity: 2)
        let a = StoredSceneKey(sceneID: "a", version: 1), b = StoredSceneKey(sceneID: "b", version: 1)
        let c = StoredSceneKey(sceneID: "c", version: 1)
        let index = try Self.index(views: 1)
        cache.put(a, index)
        cache.put(b, index)
        #expect(cache.get(a) != nil)   // a is now the most recent
        cache.put(c, index)             // evicts b
        #expect(cache.get(b) == nil)
        #expect(cache.get(a)?.index === index)
        #expect(cache.get(c)?.index === index)
        #expect(cache.count == 2)
        cache.removeAll { $0.sceneID == "a" }
        #expect(cache.get(a) == nil)
        #expect(cache.count == 1)
    }

    /// Hits on the most recent entry leave the order alone (`get` skips the move); the order
    /// must still be right when another entry is used and when one is evicted.
    @Test func sceneCacheHitsOnTheNewestKeepTheOrder() throws {
        let cache = SceneCache<StoredSceneKey>(capacity: 3)
        let keys = ["a", "b", "c", "d", "e"].map { StoredSceneKey(sceneID: $0, version: 1) }
        let index = try Self.index(views: 1)
        cache.put(keys[0], index)
        cache.put(keys[1], index)
        cache.put(keys[2], index)          // order, newest first: c b a
        for _ in 0..<3 { #expect(cache.get(keys[2])?.index === index) }
        cache.put(keys[3], index)          // evicts a: d c b
        #expect(cache.get(keys[0]) == nil)
        #expect(cache.get(keys[1])?.index === index)   // b d c
        #expect(cache.get(keys[1])?.index === index)
        cache.put(keys[4], index)          // evicts c: e b d
        #expect(cache.get(keys[2]) == nil)
        #expect(cache.get(keys[3])?.index === index && cache.get(keys[1])?.index === index && cache.get(keys[4])?.index === index)  // e b d
        #expect(cache.count == 3)
        cache.removeAll { $0.sceneID == "e" }   // the newest goes: b d
        #expect(cache.get(keys[1])?.index === index)
        cache.put(keys[0], index)               // a b d
        cache.put(keys[2], index)               // evicts d: c a b
        #expect(cache.get(keys[3]) == nil)
        #expect(cache.get(keys[0])?.index === index && cache.get(keys[1])?.index === index)
        #expect(cache.count == 3)
    }

    @Test func sceneCacheIsBoundedByViews() throws {
        let cache = SceneCache<StoredSceneKey>(capacity: 100, maxViews: 25)
        for n in 0..<5 { cache.put(StoredSceneKey(sceneID: "s\(n)", version: 1), try Self.index(views: 10)) }
        // Each entry weighs 11 (views + 1): two fit under 25.
        #expect(cache.count == 2)
        #expect(cache.get(StoredSceneKey(sceneID: "s4", version: 1)) != nil)
        #expect(cache.get(StoredSceneKey(sceneID: "s0", version: 1)) == nil)
        // An entry larger than the bound is still kept (alone).
        cache.put(StoredSceneKey(sceneID: "big", version: 1), try Self.index(views: 40))
        #expect(cache.count == 1)
    }

    @Test func sceneBytesCompareByContent() {
        let a = SceneBytes(Array("{\"a\":1}".utf8)), same = SceneBytes(Array("{\"a\":1}".utf8))
        let other = SceneBytes(Array("{\"a\":2}".utf8)), spaced = SceneBytes(Array("{\"a\": 1}".utf8))
        #expect(a == same)
        #expect(a.hashValue == same.hashValue)
        #expect(a != other)
        #expect(a != spaced)
    }

    /// The stateless cache gives the same answers as decoding every time, and errors still
    /// come out when a cached scene is sent with broken touches.
    @Test func statelessCacheAnswersLikeTheDecoder() throws {
        let cache = StatelessSceneCache(capacity: 4, maxViews: 10_000)
        let request = try Paths.example("checkout.request.json")
        let first = try StatelessDispatchBody(request, cache: cache)
        #expect(cache.count == 1)
        let second = try StatelessDispatchBody(request, cache: cache)
        #expect(second.scene.index === first.scene.index)
        #expect(first.scene.refs == nil && second.scene.refs != nil)  // written once the scene is used again
        let direct = try InputDecoder.request(request)
        #expect(second.records == direct.records)
        let result = TapTrace.dispatch(second.scene.index, records: second.records, until: second.touches.until, knobs: second.knobs)
        #expect(ResultEncoder.encode(result) == ResultEncoder.encode(try TapTrace.dispatch(json: request)))
        #expect(ResultEncoder.encode(result, refs: second.scene.refs) == ResultEncoder.encode(result))

        var broken = try JSONSerialization.jsonObject(with: Data(request)) as! [String: Any]
        broken["touches"] = ["format": "taptrace/touches@1", "events": [["t": 0, "touches": [["id": "T1", "phase": "moved", "at": [1, 1]]]]]]
        let bytes = Array(try JSONSerialization.data(withJSONObject: broken))
        let viaCache = #expect(throws: Problem.self) { try StatelessDispatchBody(bytes, cache: cache) }
        do throws(InputError) { _ = try InputDecoder.request(bytes); Issue.record("expected a validation error") } catch {
            #expect(viaCache?.json(status: nil) == Problem(error).json(status: nil))
        }
    }

    @Test(arguments: [
        ("application/json", true), ("application/json; charset=utf-8", true), ("APPLICATION/JSON;charset=\"UTF-8\"", true),
        ("application/json; charset=iso-8859-1", false), ("text/json", false), ("application/jsonx", false),
        ("application/problem+json", false), ("application/json; charset", false),
        ("\tapplication/json ", true), ("application/json ; Charset = \"utf-8\"", true), ("application/json; q=1", true),
        ("application/json;", false), ("application/json; =utf-8", false), ("application/json; charset=", false),
        ("application/json; charset=utf-8; charset=latin1", false), ("application/json; charset=utf-16", false),
        ("", false), (";", false), ("application/", false),
    ])
    func contentTypes(_ pair: (String, Bool)) {
        #expect(JSONBody.isJSON(pair.0) == pair.1)
    }

    @Test func storedDispatchKeepsTheRequestAsSent() throws {
        let tape = try JSONTape(parsing: #"{"knobs": {"hitTestPasses": 2}, "touches": {"format": "taptrace/touches@1", "gestures": [{"tap": [1, 2], "t": 0}]}, "version": 3}"#)
        let body = try StoredDispatchBody(tape)
        #expect(body.version == 3)
        #expect(String(decoding: body.storedRequest, as: UTF8.self)
                == #"{"touches":{"format": "taptrace/touches@1", "gestures": [{"tap": [1, 2], "t": 0}]},"knobs":{"hitTestPasses": 2}}"#)
        let replayed = try StoredRequest(body.storedRequest)
        #expect(replayed.records == body.records)
        #expect(replayed.knobs == body.knobs)
    }

    @Test func membersArePrefixedToAnswers() {
        #expect(String(decoding: Representations.prefixed(sceneID: "s", version: 1, object: Array("{}".utf8)), as: UTF8.self)
                == #"{"sceneId":"s","sceneVersion":1}"#)
        #expect(String(decoding: Representations.prefixed(sceneID: "s", version: 2, object: Array(#"{"a":1}"#.utf8)), as: UTF8.self)
                == #"{"sceneId":"s","sceneVersion":2,"a":1}"#)
    }
}
