#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TapTraceCore
import TapTraceFormats
@testable import TapTraceService
import TestSupport
import Testing

/// The scene caches are bounded in bytes and give memory back when idle (issue 34, item 4:
/// 40 large scenes took the process from 28 MiB to 2.66 GiB, kept while idle).
@Suite(.serialized) struct CacheBudgetTests {
    /// A grid of `rows` × `cols` views decoded from JSON, as the service caches it; with
    /// `rich`, every tenth view has a label, an identifier, a target and a recognizer.
    static func gridIndex(rows: Int, cols: Int, rich: Bool = false) throws -> SceneIndex {
        var rowsJSON: [String] = []
        rowsJSON.reserveCapacity(rows)
        for r in 0..<rows {
            var cells: [String] = []
            cells.reserveCapacity(cols)
            for c in 0..<cols {
                var extra = ""
                if rich, c % 10 == 0 {
                    extra = #", "label": "Row \#(r) column \#(c) button", "accessibilityIdentifier": "grid.cell.\#(r).\#(c)""#
                        + #", "gestureRecognizers": [{"id": "tap_\#(r)_\#(c)", "class": "UITapGestureRecognizer", "targets": [{"target": "c\#(r)_\#(c)", "action": "handleTap:"}]}]"#
                }
                cells.append(#"{"id": "c\#(r)_\#(c)", "class": "UIView", "frame": [\#(c), 0, 1, 1]\#(extra)}"#)
            }
            rowsJSON.append(#"{"id": "r\#(r)", "class": "UIView", "frame": [0, \#(r), \#(cols), 1], "subviews": [\#(cells.joined(separator: ","))]}"#)
        }
        let json = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, \#(cols), \#(rows)], "subviews": [\#(rowsJSON.joined(separator: ","))]}]}"#
        return SceneIndex(validated: try InputDecoder.scene(Array(json.utf8)))
    }

    static func key(_ n: Int) -> StoredSceneKey { StoredSceneKey(sceneID: "s\(n)", version: 1) }

    /// The least recently used go first once the estimated bytes pass the budget; the cache
    /// never holds more than its budget, and a scene larger than the whole budget is not kept.
    @Test func aCacheStaysWithinItsByteBudget() throws {
        let index = try Self.gridIndex(rows: 10, cols: 99)   // 1,001 views
        let each = SceneMemory.bytes(of: index)
        #expect(each > 1_001 * 200 && each < 1_001 * 2_000, "\(each) bytes for 1,001 views")
        let cache = SceneCache<StoredSceneKey>(capacity: 100, maxBytes: 3 * each + each / 2)
        for n in 0..<6 {
            cache.put(Self.key(n), index)
            #expect(cache.bytes <= cache.maxBytes)
        }
        #expect(cache.count == 3)
        #expect(cache.get(Self.key(2)) == nil)
        #expect(cache.get(Self.key(3)) != nil)   // 3 is now the most recent: 4 goes next
        cache.put(Self.key(6), index)
        #expect(cache.get(Self.key(4)) == nil)
        #expect(cache.get(Self.key(3)) != nil && cache.get(Self.key(5)) != nil && cache.get(Self.key(6)) != nil)

        // The refs written at a scene's second use count too, and push out another scene.
        let withRefs = cache.bytes
        #expect(withRefs > 3 * each, "the refs of three scenes are counted")
        #expect(withRefs <= cache.maxBytes)

        // Larger than the budget: not kept, and nothing else is evicted for it.
        let big = try Self.gridIndex(rows: 40, cols: 99)
        cache.put(Self.key(7), big)
        #expect(cache.get(Self.key(7)) == nil)
        #expect(cache.count == 3)
    }

    /// The stateless cache counts the bytes a scene was sent as, and lets go of the bytes of
    /// the scenes it evicts (its prefix index kept them until `capacity` later insertions).
    @Test func theStatelessCacheForgetsWhatItEvicts() throws {
        let index = try Self.gridIndex(rows: 2, cols: 99)
        let each = SceneMemory.bytes(of: index)
        let cache = StatelessSceneCache(capacity: 64, maxBytes: 2 * (each + 40_000))
        for n in 0..<10 {
            // Distinct 30 KB scenes (only their bytes matter to the cache).
            let bytes = Array("{\"scene\": \(n), \"padding\": \"\(String(repeating: "x", count: 30_000))\"}".utf8)
            cache.put(SceneBytes(bytes), index)
            #expect(cache.scenes.bytes <= cache.scenes.maxBytes)
        }
        #expect(cache.count == 2)
        #expect(cache.indexedCount == 2)
    }

    /// The estimate against what malloc says the process holds once an index is built (its
    /// bytes in use, from `malloc_info`): 50,000 views decoded from JSON, plain, and with
    /// labels, identifiers and recognizers. The count is the whole process's, and tests running
    /// in parallel allocate and free meanwhile (once 86 % off under CI's load), so it is taken
    /// up to three times and the closest counts; an estimate that is wrong is off every time
    /// (alone it was within 1 %).
    @Test(arguments: [false, true])
    func theEstimateIsCloseToWhatMallocCounts(rich: Bool) throws {
        #if os(Linux)
        var indexDeviation = Double.infinity, refsDeviation = Double.infinity
        var notes: [String] = []
        for _ in 0..<3 where indexDeviation >= 0.15 || refsDeviation >= 0.15 {
            let before = try Self.heapInUse()
            let index = try Self.gridIndex(rows: 500, cols: 99, rich: rich)
            let built = try Self.heapInUse()
            let refs = SceneRefsJSON(index)
            let withRefs = try Self.heapInUse()
            let estimate = SceneMemory.bytes(of: index), measured = built - before
            let refsEstimate = SceneMemory.bytes(of: refs, for: index), refsMeasured = withRefs - built
            indexDeviation = min(indexDeviation, abs(Double(estimate) / Double(measured) - 1))
            refsDeviation = min(refsDeviation, abs(Double(refsEstimate) / Double(refsMeasured) - 1))
            notes.append("estimated \(estimate) bytes, malloc counts \(measured); refs \(refsEstimate), \(refsMeasured)")
            withExtendedLifetime((index, refs)) {}
        }
        #expect(indexDeviation < 0.15, "\(notes)")
        #expect(refsDeviation < 0.15, "\(notes)")
        #endif
    }

    /// Bytes glibc's malloc holds in use for the process: what its arenas took from the system,
    /// less their free chunks, plus chunks mapped on their own (`malloc_info`'s totals).
    static func heapInUse() throws -> Int {
        #if canImport(Glibc)
        typealias Info = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { throw CocoaError(.featureUnsupported) }
        let info = unsafeBitCast(symbol, to: Info.self)
        var buffer: UnsafeMutablePointer<CChar>?
        var length = 0
        let file = open_memstream(&buffer, &length)
        _ = info(0, file)
        fclose(file)
        guard let buffer else { throw CocoaError(.fileReadCorruptFile) }
        let xml = String(cString: buffer)
        free(buffer)
        // The totals follow the last arena's `</heap>`.
        guard let end = xml.range(of: "</heap>", options: .backwards) else { throw CocoaError(.fileReadCorruptFile) }
        let totals = xml[end.upperBound...]
        func size(_ element: String) -> Int {
            guard let start = totals.range(of: element),
                  let attribute = totals[start.upperBound...].range(of: "size=\"") else { return 0 }
            return Int(totals[attribute.upperBound...].prefix(while: \.isNumber)) ?? 0
        }
        return size(#"<system type="current""#) - size(#"<total type="fast""#) - size(#"<total type="rest""#)
            + size(#"<total type="mmap""#)
        #else
        throw CocoaError(.featureUnsupported)
        #endif
    }

    /// With the defaults, a 100,001-view scene (about 5.3 MB of JSON) stays cached, with its
    /// refs (issue 34, item 1: stored work on large scenes does not redo per-scene work).
    @Test func a100001ViewSceneStaysCachedWithTheDefaults() throws {
        let index = try Self.gridIndex(rows: 1_000, cols: 99)
        #expect(index.viewCount == 100_001)
        let settings = CacheSettings()
        let cache = SceneCache<StoredSceneKey>(maxBytes: settings.sceneCacheBytes)
        cache.put(Self.key(0), index)                     // its first use
        #expect(cache.get(Self.key(0))?.refs != nil)      // the second: refs written and kept
        #expect(cache.get(Self.key(0))?.index === index)
        #expect(cache.count == 1)
        // Room for more than one: the budget is not set just above it.
        #expect(cache.bytes * 3 < settings.sceneCacheBytes, "\(cache.bytes) bytes")
        let stateless = StatelessSceneCache(capacity: 64, maxBytes: settings.statelessCacheBytes)
        stateless.put(SceneBytes([UInt8](repeating: 0x20, count: 5_300_000)), index)
        #expect(stateless.count == 1)
    }

    @Test func idleReleaseComesOnceAfterWorkStops() {
        var state = IdleMemoryRelease.State()
        // The first look only learns the counter; work; quiet: release once.
        #expect(state.tick(activity: 0) == false)
        #expect(state.tick(activity: 5) == false)
        #expect(state.tick(activity: 9) == false)
        #expect(state.tick(activity: 9) == true)
        #expect(state.tick(activity: 9) == false)
        #expect(state.tick(activity: 9) == false)
        // Work again, then quiet again.
        #expect(state.tick(activity: 10) == false)
        #expect(state.tick(activity: 10) == true)
        // Never without work before.
        var idle = IdleMemoryRelease.State()
        for _ in 0..<5 { #expect(idle.tick(activity: 3) == false) }
    }

    /// The thread: one release after the activity stops, none while it goes on or once idle.
    @Test func idleReleaseThread() {
        let activity = CacheTestCounter()
        let released = CacheTestCounter()
        let release = IdleMemoryRelease(interval: .milliseconds(50), activity: { activity.value },
                                        release: { released.increment() })
        defer { release.stop() }
        for _ in 0..<6 {
            activity.increment()
            usleep(30_000)
        }
        #expect(eventually(timeoutSeconds: 10) { released.value == 1 })
        usleep(300_000)
        #expect(released.value == 1)
        #expect(release.releases == 1)
    }

    /// A server with small budgets keeps its memory near them while scenes far past them are
    /// uploaded and dispatched against, and gives back what it freed once idle.
    @Test func aServerStaysNearItsBudgetsWithManyLargeScenes() throws {
        #if os(Linux)
        try withServer(extraArguments: ["--scene-cache-bytes", "16M", "--stateless-cache-bytes", "8M",
                                        "--idle-memory-release", "1", "--threads", "2"]) { server in
            let client = try RawHTTPClient(port: server.port, timeoutSeconds: 120)
            let pid = server.process.processIdentifier
            _ = try client.call("GET", "/health")
            let start = try Self.residentBytes(of: pid)
            let scenes = 14
            let estimated = 2 * scenes * SceneMemory.bytes(of: try Self.gridIndex(rows: 100, cols: 99))
            for n in 0..<scenes {
                // 10,001 views each (about 600 KB of JSON, an index of some 6 MB).
                let scene = StorageFailureEndpointTests.gridScene(rows: 100, name: "large \(n)")
                let created = try client.call("POST", "/v1/scenes", body: scene)
                #expect(created.status == 201)
                let id = try #require(try created.object().string("id"))
                #expect(try client.call("POST", "/v1/scenes/\(id)/hit-test", json: ["point": [1, 1]]).status == 200)
                // Stateless too: each a new scene.
                let touches: [String: Any] = ["format": "taptrace/touches@1", "gestures": [["tap": [1, 1], "t": 0]]]
                let body = #"{"scene": "# + String(decoding: scene, as: UTF8.self) + #", "touches": "#
                    + String(decoding: try JSONSerialization.data(withJSONObject: touches), as: UTF8.self) + "}"
                #expect(try client.call("POST", "/v1/dispatch", body: Array(body.utf8)).status == 200)
            }
            // Quiet: within a few seconds the freed memory goes back.
            // Without the budgets it grew by some 190 MiB, and kept them; with them by about 30.
            let settled = eventually(timeoutSeconds: 20) {
                ((try? Self.residentBytes(of: pid)) ?? .max) - start < (24 << 20) + (40 << 20)
            }
            let resident = try Self.residentBytes(of: pid)
            #expect(settled, "resident \(resident >> 20) MiB after starting at \(start >> 20) MiB; the scenes' indexes alone are \(estimated >> 20) MiB")
            // Every scene is still answered (decoded again when evicted).
            let listed = try client.allItems("/v1/scenes", limit: 100)
            #expect(listed.count == scenes)
        }
        #endif
    }

    static func residentBytes(of pid: Int32? = nil) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid.map(String.init) ?? "self")/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { throw CocoaError(.fileReadCorruptFile) }
        return kilobytes * 1024
    }
}

final class CacheTestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
