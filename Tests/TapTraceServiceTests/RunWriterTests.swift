import Foundation
import TestSupport
import Testing
import TapTraceHTTP
import TapTraceStore

@testable import TapTraceService

/// The RunWriter's group commit waits for runs that requests have announced (decision 47),
/// and for nothing else. The gather window here is an hour (`Fixture`): a writer that waited
/// for it would never finish a test.
@Suite("Run writer")
struct RunWriterTests {
    /// A writer whose gather window is an hour, on a store whose clock moves 1 ms at every
    /// reading: runs written in one transaction share a `createdAt`, runs of two do not.
    struct Fixture {
        let writer: RunWriter
        let scene: String
        let outcomes = Outcomes()

        init() throws {
            let ticks = TickCounter()
            let clock = StoreClock { Date(timeIntervalSince1970: 1_795_327_262 + Double(ticks.next()) / 1000) }
            let store = try SQLiteTraceStore(location: .inMemory, clock: clock)
            let content = SceneContent(document: Data("{}".utf8), viewCount: 1, windowCount: 1, recognizerCount: 0)
            scene = try store.createScene(name: nil, content: content).scene.id
            writer = RunWriter(store: store, gatherWindow: .seconds(3600))
        }

        /// Submits the run tagged `tag`; its outcome goes to `outcomes`.
        func submit(_ tag: String, announcement: RunWriter.Announcement? = nil) {
            writer.submit(RunWriterTests.run(scene, tag), requireLatest: false, announcement: announcement,
                          done: outcomes.done(tag))
        }
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
        let fixture = try Fixture()
        fixture.submit("a", announcement: fixture.writer.announce())
        #expect(fixture.outcomes.wait(for: ["a"]).count == 1)
        // Unannounced runs (the conflict retry path) are not held either.
        fixture.submit("b")
        #expect(fixture.outcomes.wait(for: ["b"]).count == 1)
    }

    @Test("a run announced by another request is waited for, and both are written in one transaction")
    func announcedRunJoinsTheBatch() throws {
        let fixture = try Fixture()
        let first = fixture.writer.announce()
        let second = fixture.writer.announce()
        fixture.submit("a", announcement: first)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!fixture.outcomes.has("a"), "written before the announced run came")
        fixture.submit("b", announcement: second)
        let records = fixture.outcomes.wait(for: ["a", "b"])
        #expect(records.count == 2)
        #expect(Set(records.map(\.summary.createdAt)).count == 1, "two transactions: \(records.map(\.summary.createdAt))")
    }

    @Test("while the writer gathers, a run that leaves others announced does not wake it")
    func gatheringWriterSleepsUntilTheLastAnnouncedRun() throws {
        let fixture = try Fixture()
        let announcements = (0..<3).map { _ in fixture.writer.announce() }
        fixture.submit("a", announcement: announcements[0])
        Thread.sleep(forTimeInterval: 0.2)
        let before = fixture.writer.wakeUpCount
        fixture.submit("b", announcement: announcements[1])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(fixture.writer.wakeUpCount == before, "woken by a run while two were still announced")
        #expect(!fixture.outcomes.has("b"))
        fixture.submit("c", announcement: announcements[2])
        let records = fixture.outcomes.wait(for: ["a", "b", "c"])
        #expect(records.count == 3)
        #expect(Set(records.map(\.summary.createdAt)).count == 1, "more than one transaction")
    }

    #if os(Linux)
    @Test("with processors to commit on, the writer takes them in turn, one batch each")
    func batchesAreCommittedOnEachProcessorInTurn() throws {
        let allowed = ThreadAffinity.allowedProcessors()
        guard allowed.count >= 2 else { return }  // one processor: nothing to take turns on
        let fixture = try Fixture()
        fixture.writer.commitOn(processors: Array(allowed.prefix(2)))
        var seen: [String] = []
        for tag in ["a", "b", "c"] {
            let done = DispatchSemaphore(value: 0)
            let place = Shared("")
            fixture.writer.submit(Self.run(fixture.scene, tag), requireLatest: false) { _ in
                // The completion runs on the writer's thread, right after the batch's commit.
                place.update { $0 = allowedProcessorList() }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 60) == .success)
            seen.append(place.current)
        }
        #expect(seen == ["\(allowed[0])", "\(allowed[1])", "\(allowed[0])"])
    }

    /// Decision 48: woken by a request's run, the writer waits for the worker on its
    /// processor to finish its response instead of preempting it mid-request.
    @Test("the writer's thread is of the batch class")
    func writerThreadIsOfTheBatchClass() throws {
        let fixture = try Fixture()
        let done = DispatchSemaphore(value: 0)
        let policy = Shared<Int?>(nil)
        fixture.writer.submit(Self.run(fixture.scene, "a"), requireLatest: false) { _ in
            // The completion runs on the writer's thread.
            policy.update { $0 = schedulingPolicyOfCurrentThread() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(policy.current == 3, "SCHED_BATCH is 3")
    }

    @Test("with fewer than two processors the writer runs wherever the system puts it")
    func oneProcessorIsNoTurn() throws {
        let fixture = try Fixture()
        fixture.writer.commitOn(processors: [ThreadAffinity.allowedProcessors().first ?? 0])
        let done = DispatchSemaphore(value: 0)
        let place = Shared("")
        fixture.writer.submit(Self.run(fixture.scene, "a"), requireLatest: false) { _ in
            place.update { $0 = allowedProcessorList() }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(place.current == allowedProcessorList())
    }
    #endif

    @Test("an announcement given up without a run (the request failed) is no longer waited for")
    func withdrawnAnnouncement() throws {
        let fixture = try Fixture()
        var failing: RunWriter.Announcement? = fixture.writer.announce()
        fixture.submit("a", announcement: fixture.writer.announce())
        Thread.sleep(forTimeInterval: 0.2)
        #expect(!fixture.outcomes.has("a"))
        #expect(failing != nil)
        failing = nil
        #expect(fixture.outcomes.wait(for: ["a"]).count == 1)
    }
}
