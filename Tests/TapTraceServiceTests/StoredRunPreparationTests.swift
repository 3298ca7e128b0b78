import Foundation
import TapTraceStore
import TestSupport
import Testing

@testable import TapTraceService

/// The run writer's thread only writes (issue 34, item 3): a stored run's result is hashed and
/// compressed on the thread that submits it, so one big result holds up its own request and no
/// other run. On the writer's thread (inside its transaction) a 1.6 GB result stalled every
/// writer for 9.5 s.
@Suite struct StoredRunPreparationTests {
    @Test func aBigResultIsPreparedByItsSubmitterNotByTheWriter() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath))
        defer { try? store.close() }
        let content = SceneContent(document: Data("{}".utf8), viewCount: 1, windowCount: 1, recognizerCount: 0)
        let bigScene = try store.createScene(name: "big", content: content).scene.id
        let smallScene = try store.createScene(name: "small", content: content).scene.id
        let writer = RunWriter(store: store)

        // About 48 MB of trace-like JSON: compressing and hashing it takes a while here.
        var text = #"{"trace":["#
        var n = 0
        while text.utf8.count < 48 << 20 {
            text += #"{"kind":"call","receiver":{"id":"cell_\#(n % 977)","class":"UITableViewCell"},"t":\#(n)},"#
            n += 1
        }
        let big = NewRun(sceneID: bigScene, sceneVersion: 1, request: Data("{}".utf8), result: Data((text + "{}]}").utf8),
                         firstResponder: nil, actions: "[]", outcome: "big", actionCount: 0)
        let small = NewRun(sceneID: smallScene, sceneVersion: 1, request: Data("{}".utf8), result: Data(#"{"r":1}"#.utf8),
                           firstResponder: nil, actions: "[]", outcome: "small", actionCount: 0)

        let events = EventLog()
        let started = DispatchSemaphore(value: 0)
        let submitter = TestThread {
            started.signal()
            writer.submit(big, requireLatest: false) { outcome in events.append("big written: \((try? outcome.get()) != nil)") }
            events.append("big submitted")
        }
        started.wait()
        // For the order of events: the big result is being prepared by now (nothing is timed).
        usleep(30_000)
        let smallDone = DispatchSemaphore(value: 0)
        writer.submit(small, requireLatest: false) { outcome in
            events.append("small written: \((try? outcome.get()) != nil)")
            smallDone.signal()
        }
        #expect(smallDone.wait(timeout: .now() + 60) == .success)
        #expect(submitter.join(timeoutSeconds: 120))
        #expect(eventually(timeoutSeconds: 60) { events.entries.count == 3 })
        // The small run was written while the big one was still being prepared by its
        // submitter; queued as it was, the writer's thread compressed it first.
        #expect(events.entries.first == "small written: true", "\(events.entries)")
        #expect(Set(events.entries) == ["small written: true", "big submitted", "big written: true"])
        #expect(try store.listRuns(sceneID: bigScene, limit: 5).items.count == 1)
    }
}

final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var entries: [String] { lock.withLock { list } }
    func append(_ entry: String) { lock.withLock { list.append(entry) } }
}
