import Foundation
import Testing
import TapTraceClient

/// A server started with a token file: the client sends its token with every request, through
/// the convenience methods (raw JSON and generated types) and through `api`.
@Suite struct TokenTests {
    let server: TestServer

    init() throws {
        server = try TestServer(token: "swift-client-token-7")
    }

    @Test func requestsCarryTheToken() async throws {
        let taptrace = server.client
        // Raw JSON (sent without the generated client) and generated types (with it).
        let scene = try await taptrace.upload(scene: try TestServer.example("checkout.scene.json"))
        let run = try await taptrace.tap("buyButton", in: scene.sceneID, label: "with a token")
        #expect(run.firstResponderID == "buyButton")
        #expect(try await taptrace.run(run.id).id == run.id)
        // `api`, the generated client, sends it too: 200, not its 401 case.
        let listed = try await taptrace.api.listScenes()
        #expect(try listed.ok.body.json.items.count == 1)
    }

    @Test func withoutOrWithAWrongTokenItIs401() async throws {
        for token in ["wrong-token", nil] as [String?] {
            let other = TapTrace(serverURL: server.url, token: token)
            if token == nil, ProcessInfo.processInfo.environment["TAPTRACE_TOKEN"] != nil { continue }
            let problem = try await #require(throws: TapTraceProblem.self) {
                try await other.upload(scene: try TestServer.example("checkout.scene.json"))
            }
            #expect(problem.status == 401)
            #expect(!"\(problem)".contains("swift-client-token-7"))
        }
    }

    @Test func aTokenThatCannotBeSentIsRefusedBeforeSending() async throws {
        let bad = TapTrace(serverURL: server.url, token: "two words")
        let error = try await #require(throws: TapTraceClientError.self) {
            try await bad.upload(scene: try TestServer.example("checkout.scene.json"))
        }
        #expect("\(error)".contains("visible ASCII"))
        #expect(!"\(error)".contains("two words"))
    }
}
