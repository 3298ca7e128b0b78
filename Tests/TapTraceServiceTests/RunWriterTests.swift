import Foundation
import Testing
import TapTraceStore

@testable import TapTraceService

/// The RunWriter's group commit waits for runs that requests have announced (decision 56),
/// and for nothing else. The gather window here is an hour: a writer that waited for it
/// would never finish a test.
@Suite("Run writer")
struct RunWriterTests {
    /// A store whose clock moves 1 ms at every reading: runs written in one transaction share
    /// a `createdAt`, runs of two transactions do not.
    static func store() throws -> (TraceStore, String) {
        let ticks = TickCounter()
        let clock = StoreClock { Date(timeIntervalSince1970: 1_795_327_262 + Double(ticks.next()) / 1000) }
        let store = try TraceStore(location: .inMemory, clock: clock)
        let content = SceneContent(document: Data("{}".utf8), viewCount: 1, windowCount: 1, recognizerCount: 0)
        return (store, try store.createScene(name: nil, content: content).scene.id)
    }

    static func run(_ sceneID: String, _ tag: String) -> NewRun {
        NewRun(sceneID: sceneID, sceneVersion: 1, request: Data(tag.utf8), result: Data("{\"r\":\"\(tag)\"}".utf8),
               firstResponder: nil, actions: "[]", outcome: tag, actionCount: 0)
    }

    /// Collects outcomes from the writer's thread.
    final class Outcomes: @unchecked Sendable {
        private let condition = NSCondition()
        private var records: [String: RunRecord] = [:]

        func done(_ tag: String) -> RunWriter.Completion {
            { [self] outcome in
                condition.withLock {
                    records[tag] = try? outcome.get()
                    condition.broadcast()
                }
            }
        }

        /// Waits (up to a minute, so a broken writer fails the test instead of hanging it).
        func wait(for tags: [String]) -> [RunRecord] {
            condition.withLock {
                let deadline = Date(timeIntervalSinceNow: 60)
                while !tags.allSatisfy({ records[$0] != nil }), condition.wait(until: deadline) {}
                return tags.compactMap { records[$0] }
            }
        }

        func has(_ tag: String) -> Bool { condition.withLock { records[tag] != nil } }
    }

    final class TickCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func next() -> Int { lock.withLock { defer { value += 1 }; return value } }
    }

    @Test("a run nobody else announced is written at once, whatever the gather window")
    func aloneIsNotHeld() throws {
        let (store, scene) = try Self.store()
        let writer = RunWriter(store: store, gatherWindow: .seconds(3600))
        let outcomes = Outcomes()
        let announcement = writer.announce()
        writer.submit(Self.run(scene, "a"), requireLatest: false, announcement: announcement, done: outcomes.done("a"))
        #expect(outcomes.wait(for: ["a"]).count == 1)
        // Unannounced runs (the conflict retry path) are not held either.
        writer.submit(Self.run(scene, "b"), requireLatest: false, done: outcomes.done("b"))
        #expect(outcomes.wait(for: ["b"]).count == 1)
    }

    @Test("a run announced by another request is waited for, and both are written in one transaction")
    func announcedRunJoinsTheBatch() throws {
        let (store, scene) = try Self.store()
        let writer = RunWriter(store: store, gatherWindow: .seconds(3600))
        let outcomes = Outcomes()
        let first = writer.announce()
        let second = writer.announce()
        writer.submit(Self.run(scene, "a"), requireLatest: false, announcement: first, done: outcomes.done("a"))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!outcomes.has("a"), "written before the announced run came")
        writer.submit(Self.run(scene, "b"), requireLatest: false, announcement: second, done: outcomes.done("b"))
        let records = outcomes.wait(for: ["a", "b"])
        #expect(records.count == 2)
        #expect(Set(records.map(\.summary.createdAt)).count == 1, "two transactions: \(records.map(\.summary.createdAt))")
    }

    @Test("an announcement given up without a run (the request failed) is no longer waited for")
    func withdrawnAnnouncement() throws {
        let (store, scene) = try Self.store()
        let writer = RunWriter(store: store, gatherWindow: .seconds(3600))
        let outcomes = Outcomes()
        var failing: RunWriter.Announcement? = writer.announce()
        writer.submit(Self.run(scene, "a"), requireLatest: false, announcement: writer.announce(), done: outcomes.done("a"))
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!outcomes.has("a"))
        #expect(failing != nil)
        failing = nil
        #expect(outcomes.wait(for: ["a"]).count == 1)
    }
}
