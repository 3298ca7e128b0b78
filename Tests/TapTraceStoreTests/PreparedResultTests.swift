import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// Results are hashed and compressed before the write transaction, on the caller's thread
/// (issue 34, item 3: "compression and encoding outside the write transaction"), and a result
/// equal to a recent one is neither.
@Suite struct PreparedResultTests {
    /// About `megabytes` MB of trace-like JSON that compresses (zstd level 1, a few hundred
    /// milliseconds, and hashing it as long again in a debug build).
    static func bigResult(megabytes: Int, seed: Int) -> Data {
        var text = #"{"seed":\#(seed),"trace":["#
        let entry = #"{"kind":"call","receiver":{"id":"cell_"#
        var n = 0
        while text.utf8.count < megabytes << 20 {
            text += entry + "\(n % 977)\",\"class\":\"UITableViewCell\"},\"selector\":\"touchesMoved:withEvent:\",\"t\":\(n)},"
            n += 1
        }
        return Data((text + "{}]}").utf8)
    }

    /// While one caller compresses a big result, another scene's run is written: the write
    /// lock is not held meanwhile. Inside the transaction the small run waited for the
    /// compression.
    @Test(arguments: Backend.sharedCases)
    func aBigResultHoldsNoOneElseUp(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let bigScene = try store.createScene(name: "big", content: content("a")).scene.id
            let smallScene = try store.createScene(name: "small", content: content("b")).scene.id
            var bigRun = newRun(bigScene, tag: "big")
            bigRun.result = Self.bigResult(megabytes: 48, seed: 1)
            let big = bigRun

            let order = Locked<[String]>([])
            let started = DispatchSemaphore(value: 0)
            let writer = TestThread {
                started.signal()
                _ = try? store.insertRun(big)
                order.withLock { $0.append("big") }
            }
            started.wait()
            // For the order of events: the big run is being prepared by now (nothing is timed).
            usleep(30_000)
            let small = try store.insertRun(newRun(smallScene, tag: "small"))
            order.withLock { $0.append("small") }
            #expect(writer.join(timeoutSeconds: 120))
            #expect(order.withLock { $0 } == ["small", "big"])
            #expect(try store.run(id: small.id) == small)
            #expect(try store.listRuns(sceneID: bigScene, limit: 10).items.count == 1)
            let encodings = try textsSQL(store, "SELECT encoding AS value FROM run_results WHERE scene_id = $1", [.text(bigScene)])
            #expect(encodings == ["zstd"])
        }
    }

    /// A prepared run carries its stored form: the insert writes exactly it, and reads back
    /// the document.
    @Test(arguments: Backend.allCases)
    func aPreparedRunIsWrittenAsPrepared(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("a")).scene.id
            var run = newRun(id, tag: "p")
            run.result = Data(String(repeating: #"{"entry":"touchesBegan:withEvent:"},"#, count: 200).utf8)
            let prepared = store.prepare(run)
            #expect(prepared == run)   // the same run for every caller
            guard case .encoded(let digest, let encoding, let bytes)? = prepared.preparedResult else {
                Issue.record("not prepared: \(String(describing: prepared.preparedResult))")
                return
            }
            #expect(digest == run.resultDigest)
            #expect(encoding == "zstd")
            let stored = try store.insertRun(prepared)
            let row = "FROM run_results WHERE scene_id = $1"
            #expect(try integersSQL(store, "SELECT digest AS value \(row)", [.text(id)]) == [digest])
            #expect(try textsSQL(store, "SELECT encoding AS value \(row)", [.text(id)]) == ["zstd"])
            #expect(try blobsSQL(store, "SELECT bytes AS value \(row)", [.text(id)]) == [bytes])
            #expect(stored.result == run.result)
            #expect(try store.run(id: stored.id).result == run.result)
        }
    }

    /// A result equal to one stored lately is recognised when the run is prepared: neither
    /// hashed nor compressed (no miss), and its row shared.
    @Test(arguments: Backend.allCases)
    func aRecentResultIsNeitherHashedNorCompressed(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("a")).scene.id
            let first = try store.insertRun(newRun(id, tag: "same"))
            let misses = resultMisses(store)
            let again = store.prepare(newRun(id, tag: "same"))
            guard case .recent? = again.preparedResult else {
                Issue.record("not found among the recent results: \(String(describing: again.preparedResult))")
                return
            }
            #expect(resultMisses(store) == misses)
            let second = try store.insertRun(again)
            #expect(try rowCount(store, "run_results", sceneID: id) == 1)
            #expect(try store.run(id: second.id).result == first.result)
            #expect(try store.run(id: first.id).result == first.result)
        }
    }

    /// Changing a prepared run's result undoes the preparation: the new result is stored.
    @Test(arguments: Backend.allCases)
    func changingTheResultUndoesThePreparation(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("a")).scene.id
            var run = store.prepare(newRun(id, tag: "before"))
            #expect(run.preparedResult != nil)
            run.result = Data(#"{"trace":"after"}"#.utf8)
            #expect(run.preparedResult == nil)
            let stored = try store.insertRun(run)
            #expect(try store.run(id: stored.id).result == Data(#"{"trace":"after"}"#.utf8))
        }
    }
}
