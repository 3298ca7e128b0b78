import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// A stored result equal to one stored lately is found by its bytes and not hashed again
/// (`RecentResults`); any other result is hashed, and shared through the table.
struct RecentResultsTests {
    private func document(_ text: String, padding: Int = 2_000) -> Data {
        Data((text + String(repeating: ".", count: padding)).utf8)
    }

    private func run(_ sceneID: String, _ result: Data, tag: String = "r") -> NewRun {
        var run = newRun(sceneID, tag: tag)
        run.result = result
        return run
    }

    private func storedDigests(_ store: any TraceStore) throws -> [Int64?] {
        try integersSQL(store, "SELECT digest AS value FROM run_results ORDER BY id")
    }

    @Test("the same bytes again are not hashed again, and share the row stored with the hash's value",
          arguments: Backend.allCases)
    func repeatedBytesAreNotHashed(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            let result = document("run")
            let first = try store.insertRun(run(id, result, tag: "a"))
            // An equal copy in storage of its own, as every request's result is.
            let second = try store.insertRun(run(id, Data(Array(result)), tag: "b"))
            #expect(try storedDigests(store) == [ResultDigest.of(Array(result))])
            #expect(resultMisses(store) == 1)
            #expect(try store.run(id: second.id).result == result)
            #expect(try store.run(id: first.id).result == result)
        }
    }

    @Test("bytes of the same length that differ anywhere are hashed and stored apart", arguments: Backend.allCases)
    func differentBytesAreHashed(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            let first = document("touch-1")
            var last = Array(first)
            last[last.count - 1] = UInt8(ascii: "!")
            let second = document("touch-2")
            var runs: [RunRecord] = []
            for (k, bytes) in [first, Data(last), second].enumerated() {
                runs.append(try store.insertRun(run(id, bytes, tag: "t\(k)")))
            }
            #expect(resultMisses(store) == 3)
            #expect(try storedDigests(store) == [first, Data(last), second].map { ResultDigest.of(Array($0)) })
            for (record, bytes) in zip(runs, [first, Data(last), second]) { #expect(try store.run(id: record.id).result == bytes) }
            #expect(run(id, Data()).resultDigest == ResultDigest.of([UInt8]()))
        }
    }

    @Test("beyond a scene's last few results the oldest is hashed again, and still shared through the table",
          arguments: Backend.allCases)
    func leastRecentIsForgotten(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            let documents = (0...RecentResults.perScene).map { document("doc-\($0)") }
            for (k, bytes) in documents.enumerated() { try store.insertRun(run(id, bytes, tag: "d\(k)")) }
            #expect(resultMisses(store) == documents.count)
            try store.insertRun(run(id, documents.last!, tag: "recent"))
            #expect(resultMisses(store) == documents.count)
            try store.insertRun(run(id, documents[0], tag: "oldest"))
            #expect(resultMisses(store) == documents.count + 1)
            #expect(try rowCount(store, "run_results", sceneID: id) == documents.count)
        }
    }

    @Test("results over the size limit are hashed every time, never kept", arguments: Backend.allCases)
    func largeResultsAreNotKept(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            let large = document("big", padding: RecentResults.maxBytes)
            let small = document("small")
            try store.insertRun(run(id, small, tag: "s1"))
            let a = try store.insertRun(run(id, large, tag: "l1"))
            let b = try store.insertRun(run(id, large, tag: "l2"))
            #expect(resultMisses(store) == 3)
            try store.insertRun(run(id, small, tag: "s2"))  // still remembered: the large one took no room
            #expect(resultMisses(store) == 3)
            #expect(try rowCount(store, "run_results", sceneID: id) == 2)
            #expect(try store.run(id: a.id).result == large)
            #expect(try store.run(id: b.id).result == large)
        }
    }

    @Test("runs stored from many threads at once each read back their own result", arguments: Backend.allCases)
    func concurrentWriters(_ backend: Backend) async throws {
        let database = try TestDatabase(backend)
        defer { database.remove() }
        let store = try database.open(clock: .system)
        let id = try store.createScene(name: "s", content: content("v1")).scene.id
        let documents = (0..<6).map { document("doc-\($0)", padding: 20_000) }
        let ok = await withTaskGroup(of: Bool.self) { group in
            for k in 0..<200 {
                let bytes = documents[k % documents.count]
                let run = self.run(id, bytes, tag: "c\(k)")
                group.addTask { (try? store.run(id: store.insertRun(run).id).result) == bytes }
            }
            return await group.reduce(true) { $0 && $1 }
        }
        #expect(ok)
        #expect(try store.listRuns(sceneID: id, limit: 1000).items.count == 200)
        #expect(try rowCount(store, "run_results", sceneID: id) == documents.count)
        try store.close()
    }
}
