import Foundation
import TapTraceCore
import TapTraceFormats
@testable import TapTraceService
import Testing

/// Stateless dispatch's fast path (a cached scene recognised byte for byte, only the touches
/// parsed) must answer exactly as the full decode: the same values when it answers, and the
/// same error documents because it steps aside whenever anything is unusual.
@Suite struct StatelessFastPathTests {
    /// A request whose scene is long enough for the prefix index (≥ 256 bytes).
    static let scene = try! String(decoding: Paths.example("checkout.scene.json"), as: UTF8.self)
    static let touches = #"{"format": "taptrace/touches@1", "events": [{"t": 0, "touches": [{"id": "T1", "phase": "began", "at": [200, 600]}]}, {"t": 0.1, "touches": [{"id": "T1", "phase": "ended", "at": [200, 600]}]}]}"#

    /// The same scene with a space before its last brace: equal bytes up to there.
    static let otherScene: String = {
        let end = scene.range(of: "}", options: .backwards)!
        return scene.replacingCharacters(in: end, with: " }")
    }()

    static func request(_ members: String...) -> [UInt8] { Array(("{" + members.joined(separator: ",") + "}").utf8) }

    /// Decodes `bytes` both ways and checks they agree; returns whether the fast path answered.
    @discardableResult
    static func agree(_ bytes: [UInt8], cache: StatelessSceneCache, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = StatelessDispatchBody.skimming(bytes, cache: cache)
        let ours: Result<StatelessDispatchBody, Problem>
        do throws(Problem) { ours = .success(try StatelessDispatchBody(bytes, cache: cache)) } catch { ours = .failure(error) }
        do throws(InputError) {
            let full = try InputDecoder.request(bytes)
            guard case .success(let body) = ours else {
                Issue.record("the full decode accepts what the service refused", sourceLocation: sourceLocation)
                return fast != nil
            }
            #expect(body.records == full.records, sourceLocation: sourceLocation)
            #expect(body.touches == full.touches, sourceLocation: sourceLocation)
            #expect(body.knobs == full.knobs, sourceLocation: sourceLocation)
            #expect(body.scene.index.viewCount == SceneIndex(validated: full.scene).viewCount, sourceLocation: sourceLocation)
        } catch {
            guard case .failure(let problem) = ours else {
                Issue.record("the service accepted what the full decode refuses: \(error)", sourceLocation: sourceLocation)
                return fast != nil
            }
            #expect(problem.json(status: nil) == Problem(error).json(status: nil), sourceLocation: sourceLocation)
            #expect(fast == nil, sourceLocation: sourceLocation)
        }
        return fast != nil
    }

    @Test func aCachedSceneIsRecognisedWithoutParsing() {
        let cache = StatelessSceneCache(capacity: 4, maxViews: 10_000)
        let bytes = Self.request(#""scene": "# + Self.scene, #""touches": "# + Self.touches)
        #expect(StatelessDispatchBody.skimming(bytes, cache: cache) == nil)   // not cached yet
        #expect(!Self.agree(bytes, cache: cache))                           // decoded fully, cached
        #expect(cache.count == 1)
        #expect(Self.agree(bytes, cache: cache))                            // now the fast path answers
    }

    @Test func membersInAnyOrderAndSpacing() {
        let cache = StatelessSceneCache(capacity: 4, maxViews: 10_000)
        Self.agree(Self.request(#""scene": "# + Self.scene, #""touches": "# + Self.touches), cache: cache)
        #expect(Self.agree(Self.request(#""touches":"# + Self.touches, "\n\t\"scene\"  :\r\n" + Self.scene + "  "), cache: cache))
        #expect(Self.agree(Array(("  \n" + String(decoding: Self.request(#""scene": "# + Self.scene, #""touches": "# + Self.touches), as: UTF8.self) + "\n ").utf8), cache: cache))
        #expect(Self.agree(Self.request(#""knobs": {"tapMaxDuration": 0.5}"#, #""scene": "# + Self.scene, #""touches": "# + Self.touches), cache: cache))
    }

    @Test func anythingUnusualTakesTheFullDecode() {
        let cache = StatelessSceneCache(capacity: 4, maxViews: 10_000)
        let scene = #""scene": "# + Self.scene, touches = #""touches": "# + Self.touches
        Self.agree(Self.request(scene, touches), cache: cache)
        let variants: [(String, [UInt8])] = [
            ("an unknown member", Self.request(scene, touches, #""extra": 1"#)),
            ("a repeated member", Self.request(scene, touches, touches)),
            ("a repeated scene", Self.request(scene, scene, touches)),
            ("an escaped key", Self.request(#""sc\u0065ne": "# + Self.scene, touches)),
            ("no touches", Self.request(scene)),
            ("text after the document", Self.request(scene, touches) + Array(" x".utf8)),
            ("text after the scene", Self.request(scene + " 1", touches)),
            ("a trailing comma", Self.request(scene, touches + ",")),
            ("broken touches syntax", Self.request(scene, #""touches": {"format": "taptrace/touches@1", "events": [}"#)),
            ("invalid touches", Self.request(scene, #""touches": {"format": "taptrace/touches@1", "events": [{"t": 0, "touches": [{"id": "T1", "phase": "moved", "at": [1, 1]}]}]}"#)),
            ("invalid knobs", Self.request(scene, touches, #""knobs": {"tapMaxDuration": "far"}"#)),
            ("broken knobs", Self.request(scene, touches, #""knobs": {"tapMaxDuration": 0.5,}"#)),
            ("touches a number", Self.request(scene, #""touches": 12"#)),
            ("a scene changed after its prefix", Self.request(#""scene": "# + Self.otherScene, touches)),
            ("not an object", Array("[1, 2]".utf8)),
            ("a byte order mark", [0xEF, 0xBB, 0xBF] + Self.request(scene, touches)),
        ]
        for (name, bytes) in variants {
            let fast = StatelessDispatchBody.skimming(bytes, cache: cache) != nil
            #expect(!fast, "\(name)")
            Self.agree(bytes, cache: cache)
        }
    }

    @Test func anEvictedSceneIsNoLongerMatched() throws {
        let cache = StatelessSceneCache(capacity: 1, maxViews: 10_000)
        let first = Self.request(#""scene": "# + Self.scene, #""touches": "# + Self.touches)
        Self.agree(first, cache: cache)
        let fastBefore = StatelessDispatchBody.skimming(first, cache: cache) != nil
        #expect(fastBefore)
        Self.agree(Self.request(#""scene": "# + Self.otherScene, #""touches": "# + Self.touches), cache: cache)   // evicts the first
        let fastAfter = StatelessDispatchBody.skimming(first, cache: cache) != nil
        #expect(!fastAfter)
        let answeredFast = Self.agree(first, cache: cache)
        #expect(!answeredFast)
    }

    /// The prefix index keeps scene bytes alive: it must not hold more scenes than the cache,
    /// however many different scenes come (each here with a prefix of its own).
    @Test func thePrefixIndexIsBoundedByTheCache() {
        let cache = StatelessSceneCache(capacity: 4, maxViews: 100_000)
        func request(_ k: Int) -> [UInt8] {
            Self.request(#""scene": "# + Self.scene.replacingOccurrences(of: "Checkout (iPhone 15)", with: "Checkout \(k)"),
                         #""touches": "# + Self.touches)
        }
        for k in 0..<20 { Self.agree(request(k), cache: cache) }
        #expect(cache.count == 4)
        #expect(cache.indexedCount == 4)
        // The most recent ones are still found without parsing, the evicted ones are not.
        let recent = StatelessDispatchBody.skimming(request(19), cache: cache) != nil
        let evicted = StatelessDispatchBody.skimming(request(3), cache: cache) != nil
        #expect(recent && !evicted)
        // Putting one again keeps it indexed when its first insertion expires.
        Self.agree(request(3), cache: cache)
        for k in 20..<23 { Self.agree(request(k), cache: cache) }
        let again = StatelessDispatchBody.skimming(request(3), cache: cache) != nil
        #expect(again)
        #expect(cache.indexedCount == 4)
    }
}
