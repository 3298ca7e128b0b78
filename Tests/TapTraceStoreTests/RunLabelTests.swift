import Foundation
import Testing

@testable import TapTraceStore

/// Run labels (migration 0004): stored with the run, read back with it, and a history of one
/// label paginated like the whole history.
@Suite("Run labels")
struct RunLabelTests {
    func labelled(_ sceneID: String, _ label: String?, tag: String) -> NewRun {
        var run = newRun(sceneID, tag: tag)
        run.label = label
        return run
    }

    @Test("a label is stored, read back and filters the history", arguments: Backend.allCases)
    func labelsFilterHistory(_ backend: Backend) throws {
        try withStore(backend) { store, _ in
            let id = try store.createScene(name: nil, content: content("one")).scene.id
            var buy: [String] = []
            for k in 0..<7 {
                buy.append(try store.insertRun(labelled(id, "test_buy", tag: "b\(k)")).id)
                try store.insertRun(labelled(id, k % 2 == 0 ? nil : "test_cancel", tag: "c\(k)"))
            }
            let stored = try store.run(id: buy[0])
            #expect(stored.label == "test_buy")
            // One label, newest first, in pages.
            var seen: [String] = []
            var cursor: String?
            repeat {
                let page = try store.listRuns(sceneID: id, limit: 3, after: cursor, label: "test_buy")
                #expect(page.items.allSatisfy { $0.label == "test_buy" })
                seen += page.items.map(\.id)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(seen == buy.reversed())
            #expect(try store.listRuns(sceneID: id, limit: 100, after: nil, label: "test_cancel").items.count == 3)
            #expect(try store.listRuns(sceneID: id, limit: 100, after: nil, label: "nobody").items.isEmpty)
            // Without a label, the whole history; unlabelled runs read back with none.
            let all = try store.listRuns(sceneID: id, limit: 100).items
            #expect(all.count == 14)
            #expect(all.filter { $0.label == nil }.count == 4)
        }
    }
}
