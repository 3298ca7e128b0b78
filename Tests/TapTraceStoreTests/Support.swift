import Foundation
import GRDB
import TestSupport
import Testing

@testable import TapTraceStore

/// The two ways a store can be opened; most tests run on both.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case file
    case memory

    var testDescription: String { rawValue }
}

/// A clock that advances 1 ms at each reading, from 2026-11-22T06:01:02.345Z.
final class SteppingClock: @unchecked Sendable {
    static let start = Date(timeIntervalSince1970: 1_795_327_262.345)
    private let lock = NSLock()
    private var millis: Int64 = 0

    var clock: StoreClock {
        StoreClock { [self] in
            lock.lock()
            defer { lock.unlock() }
            let date = Self.start.addingTimeInterval(Double(millis) / 1000)
            millis += 1
            return date
        }
    }
}

/// Runs `body` with a fresh store of `backend` and the database's path (nil in memory), then
/// deletes its files. `checkpoints` sets up a file store's Checkpointer.
func withStore<T>(
    _ backend: Backend, clock: StoreClock = SteppingClock().clock,
    checkpoints: Checkpointer.Settings = Checkpointer.Settings(), _ body: (SQLiteTraceStore, String?) throws -> T
) throws -> T {
    switch backend {
    case .memory:
        return try body(try SQLiteTraceStore(location: .inMemory, clock: clock), nil)
    case .file:
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try SQLiteTraceStore(location: .file(directory.databasePath), clock: clock,
                                   migrations: Migration.embedded, checkpoints: checkpoints)
        defer { try? store.close() }
        return try body(store, directory.databasePath)
    }
}

func content(_ text: String, views: Int = 3, windows: Int = 1, recognizers: Int = 0) -> SceneContent {
    SceneContent(document: Data(text.utf8), viewCount: views, windowCount: windows, recognizerCount: recognizers)
}

func newRun(_ sceneID: String, version: Int = 1, tag: String = "r") -> NewRun {
    NewRun(
        sceneID: sceneID, sceneVersion: version,
        request: Data(#"{"touches":"\#(tag)"}"#.utf8), result: Data(#"{"trace":"\#(tag)"}"#.utf8),
        firstResponder: "field", actions: "login:touchUpInside", outcome: "delivered \(tag)", actionCount: 1)
}

/// Counts rows of `table` directly in SQLite (optionally `WHERE scene_id = sceneID`).
func rowCount(_ store: SQLiteTraceStore, _ table: String, sceneID: String? = nil) throws -> Int {
    try store.writer.read { db in
        if let sceneID {
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE scene_id = ?", arguments: [sceneID])!
        }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)")!
    }
}

/// Starts `count` real threads running `body(index)` and waits for all of them.
/// (Real threads, not `concurrentPerform`, so that all of them run at once even on 2 cores.)
func runThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.start()
    }
    group.wait()
}

/// `count` bytes that do not compress (a linear congruential sequence), different per `seed`.
func noise(_ count: Int, seed: Int) -> Data {
    var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 | 1
    var bytes = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
}
