import Foundation
import TestSupport
import Testing

@testable import TapTraceStore

@Suite("Closing a store")
struct CloseTests {
    @Test("a closed store throws, on a second close too, instead of using the closed connections", arguments: Backend.allCases)
    func closeTwice(_ backend: Backend) throws {
        try withDatabase(backend) { database in
            let store = try database.open()
            _ = try store.createScene(name: nil, content: content("one"))
            try store.close()
            #expect(throws: StoreError.self) { try store.close() }
            #expect(throws: StoreError.database("the store is closed")) { try store.listScenes(limit: 1) }
            #expect(throws: StoreError.database("the store is closed")) {
                try store.insertRun(newRun("scn_aaaaaaaaaaaa"))
            }
            #expect(store.health().ok == false)
            #expect(store.health().error?.contains("closed") == true)
        }
    }
}
