import Foundation
import TestSupport
import Testing
import TapTraceStore

/// Stored dispatch runs the touches against the latest version as the server last saw it and
/// lets the store confirm it when the run is written (with other runs, by the RunWriter). A
/// version written behind the server's back, by another process, must make it run again
/// against that version, not store a run of the old one as "the latest".
@Suite struct StoredDispatchRaceTests {
    @Test func aVersionWrittenByAnotherProcessIsPickedUp() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let body = Array(try JSONSerialization.data(withJSONObject: try Fixtures.storedDispatchBody()))
            let first = try client.call("POST", "/v1/scenes/\(id)/dispatch", body: body)
            #expect(first.status == 201)
            #expect(try first.object().int("sceneVersion") == 1)

            // Another process (a second store on the same file) adds version 2.
            let other = try SQLiteTraceStore(location: .file(server.databasePath))
            let document = Data(try Fixtures.checkoutV2Scene())
            try other.addVersion(sceneID: id, content: SceneContent(document: document, viewCount: 1, windowCount: 1, recognizerCount: 0))
            try other.close()

            let second = try client.call("POST", "/v1/scenes/\(id)/dispatch", body: body)
            #expect(second.status == 201)
            #expect(try second.object().int("sceneVersion") == 2)
            // The version asked for explicitly is still honoured.
            let pinned = Array(try JSONSerialization.data(withJSONObject: try Fixtures.storedDispatchBody(version: 1)))
            let third = try client.call("POST", "/v1/scenes/\(id)/dispatch", body: pinned)
            #expect(third.status == 201)
            #expect(try third.object().int("sceneVersion") == 1)
        }
    }

    @Test func aDeletedSceneAnswers404AndStoresNothing() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let body = Array(try JSONSerialization.data(withJSONObject: try Fixtures.storedDispatchBody()))
            #expect(try client.call("POST", "/v1/scenes/\(id)/dispatch", body: body).status == 201)
            let other = try SQLiteTraceStore(location: .file(server.databasePath))
            try other.deleteScene(id: id)
            try other.close()
            let response = try client.call("POST", "/v1/scenes/\(id)/dispatch", body: body)
            #expect(response.status == 404)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(try client.call("GET", "/v1/scenes/\(id)/runs").status == 404)
        }
    }
}
