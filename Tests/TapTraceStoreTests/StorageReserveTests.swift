import Foundation
import Testing
@testable import TapTraceStore

/// The room kept for deleting on a full disk (`StorageReserve`, decision 128): made only with
/// room to spare, so that space freed on a full disk goes to the database first.
@Suite struct StorageReserveTests {
    /// A reserve of 64 KiB beside a database in a fresh directory, with the free space the
    /// file system reports chosen by the test.
    final class Fixture: @unchecked Sendable {
        let directory: URL
        let databasePath: String
        private let lock = NSLock()
        private var free = 0
        var available: Int {
            get { lock.withLock { free } }
            set { lock.withLock { free = newValue } }
        }

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("reserve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            databasePath = directory.appendingPathComponent("db.sqlite").path
        }

        func reserve() -> StorageReserve {
            StorageReserve(databasePath: databasePath, bytes: 64 << 10) { _ in self.available }
        }

        func writeLog(bytes: Int) throws {
            try Data(count: bytes).write(to: URL(fileURLWithPath: databasePath + "-wal"))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    @Test func theReserveNeedsTwiceItsSizeAndTheLogFree() throws {
        let fixture = try Fixture()
        try fixture.writeLog(bytes: 100_000)
        let reserve = fixture.reserve()
        #expect(reserve.requiredFreeBytes() == 2 * (64 << 10) + 100_000)

        fixture.available = reserve.requiredFreeBytes() - 1
        #expect(!reserve.ensure())
        #expect(!FileManager.default.fileExists(atPath: reserve.path))

        fixture.available = reserve.requiredFreeBytes()
        #expect(reserve.ensure())
        let attributes = try FileManager.default.attributesOfItem(atPath: reserve.path)
        #expect((attributes[.size] as? Int) == 64 << 10)
    }

    /// After a delete took the reserve, freeing a little space does not make it again (that
    /// space goes to the database); freeing enough does, on a later commit.
    @Test func aReleasedReserveComesBackOnlyWithRoomToSpare() throws {
        let fixture = try Fixture()
        fixture.available = 1 << 30
        let reserve = fixture.reserve()
        #expect(reserve.ensure())
        #expect(reserve.release())
        #expect(!reserve.isPresent)

        let start = ContinuousClock.now
        fixture.available = 64 << 10
        reserve.ensureSoon(now: start + .seconds(10))
        #expect(!reserve.isPresent)

        fixture.available = 1 << 30
        // Not within `retryInterval` of the last attempt: commits stay cheap.
        reserve.ensureSoon(now: start + .seconds(11))
        #expect(!reserve.isPresent)
        reserve.ensureSoon(now: start + .seconds(10) + StorageReserve.retryInterval)
        #expect(reserve.isPresent)
        #expect(FileManager.default.fileExists(atPath: reserve.path))
    }

    @Test func theFileSystemsFreeSpaceIsRead() throws {
        let fixture = try Fixture()
        let available = try #require(StorageReserve.availableBytes(at: fixture.databasePath))
        #expect(available > 0)
        #expect(StorageReserve.availableBytes(at: "/nonexistent-\(UUID().uuidString)/db.sqlite") == nil)
    }
}
