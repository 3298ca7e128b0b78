import Foundation
import Testing

@testable import TapTraceStore

/// The write-ahead log is copied into the database file by the Checkpointer's thread, not by
/// the writer: the writer's own automatic checkpoint only starts at 20,000 pages.
@Suite("Checkpointer")
struct CheckpointerTests {
    @Test("committed pages reach the database file without the writer checkpointing")
    func pagesReachTheFile() throws {
        try withStore(.file) { store, path in
            let path = try #require(path)
            let size = { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }
            let before = size()
            let id = try store.createScene(name: "s", content: content("v1")).scene.id
            // 2 MB of distinct results: about 500 pages, far below the writer's threshold.
            for k in 0..<100 {
                var run = newRun(id, tag: "\(k)")
                run.result = Data(repeating: UInt8(k), count: 20_000)
                try store.insertRun(run)
            }
            let deadline = Date().addingTimeInterval(10)
            while size() < before + 2_000_000, Date() < deadline { usleep(20_000) }
            #expect(size() >= before + 2_000_000)
        }
    }

    @Test("the writer's fallback threshold is set on every connection")
    func fallbackThreshold() throws {
        try withStore(.file) { store, _ in
            let pages = try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA wal_autocheckpoint") }
            #expect(pages == Checkpointer.fallbackPages)
        }
    }
}
