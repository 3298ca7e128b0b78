import Foundation
import Testing
import TapTraceClient

/// The client against the real server: every test starts its own `taptrace serve`
/// (`TAPTRACE_BIN`) with an empty database.
@Suite struct TapTraceClientTests {
    let server: TestServer
    var taptrace: TapTrace { server.client }

    init() throws {
        server = try TestServer()
    }

    @Test func tapTheBuyButtonOfAStoredScene() async throws {
        let scene = try await taptrace.upload(scene: try TestServer.example("checkout.scene.json"))
        #expect(scene.sceneID.rawValue.hasPrefix("scn_"))
        #expect(scene.version == 1)
        #expect(scene.name == "Checkout (iPhone 15)")

        let run = try await taptrace.tap("buyButton", in: scene.sceneID, label: "buy button buys")
        #expect(run.firstResponderID == "buyButton")
        #expect(run.actionNames == ["buyTapped:"])
        #expect(run.actions.first?.target == "checkoutVC")
        #expect(run.label == "buy button buys")
        #expect(run.sceneId == scene.id)
        #expect(run.sceneVersion == 1)
        // The element was resolved on the server and checked as XCUITest's isHittable.
        let element = try #require(run.resultDocument.elements?.first)
        #expect(element.view == "buyButton")
        #expect(element.hittable)

        // The stored run reads back with the same outcome.
        let stored = try await taptrace.run(run.id)
        #expect(stored.outcome == run.outcome)
        #expect(stored.createdAt == run.createdAt)
        #expect(stored.resultDocument.responderChainIDs == run.resultDocument.responderChainIDs)
    }

    @Test func storedDispatchOfATouchesDocument() async throws {
        let scene = try await taptrace.upload(scene: try TestServer.example("checkout.scene.json"))
        let run = try await taptrace.dispatch(try TestServer.example("checkout.touches.json"), in: scene.sceneID, label: "tap at a point")
        #expect(run.firstResponderID == "buyButton")
        #expect(run.actionNames == ["buyTapped:"])
        #expect(run.label == "tap at a point")
        // A point, not an element: no element check in the result.
        #expect(run.resultDocument.elements == nil)
    }

    @Test func statelessDispatchOfARequestFile() async throws {
        let result = try await taptrace.dispatch(request: try TestServer.example("checkout.request.json"))
        #expect(result.firstResponderID == "buyButton")
        #expect(result.actionNames == ["buyTapped:"])
        #expect(result.responderChainIDs == ["buyButton", "card", "scroll", "checkoutRoot", "checkoutVC", "W", "UIApplication", "AppDelegate"])
        #expect(result.actions.first?.events == [.touchUpInside, .primaryActionTriggered])
        #expect(!result.trace.isEmpty)
    }

    @Test func statelessDispatchOfSceneAndTouchesFiles() async throws {
        let result = try await taptrace.dispatch(
            scene: try TestServer.example("checkout.scene.json"), touches: try TestServer.example("checkout.touches.json"))
        #expect(result.firstResponderID == "buyButton")
        #expect(result.actionNames == ["buyTapped:"])
    }

    /// The generated types carry a whole scene: decoded from the example, sent back, and
    /// dispatched with touches built in Swift, the outcome is the one of the JSON file.
    @Test func statelessDispatchOfGeneratedTypes() async throws {
        let scene = try JSONDecoder().decode(TapTrace.Scene.self, from: try TestServer.example("checkout.scene.json"))
        let touches = TapTrace.Touches(gestures: [.init(tap: .ElementTarget(.init(view: "buyButton")))])
        let result = try await taptrace.dispatch(scene: scene, touches: touches)
        #expect(result.firstResponderID == "buyButton")
        #expect(result.actionNames == ["buyTapped:"])

        let stored = try await taptrace.upload(scene: scene)
        #expect(stored.name == "Checkout (iPhone 15)")
        let run = try await taptrace.dispatch(touches, in: stored.sceneID)
        #expect(run.outcome == (try await taptrace.tap("buyButton", in: stored.sceneID)).outcome)
    }

    @Test func auditReportsTheTabBarUnderTheSheet() async throws {
        let audit = try await taptrace.audit(scene: try TestServer.example("tabbar.scene.json"))
        #expect(audit.count == 4)
        #expect(audit.unreachable == 4)
        #expect(audit.unreachableElements.map(\.id) == ["tabHome", "tabSearch", "tabProfile", "dimming"])
        let home = try #require(audit.element("tabHome"))
        #expect(home.status == .unreachable)
        #expect(!home.hittable)
        #expect(home.hitTestView?.id == "sheet")
        #expect(home.reasons.first?.rule == "H1")
        #expect(home.reasons.first?.kind == "covered")

        // The stored route audits the latest version and gives the same verdict.
        let scene = try await taptrace.upload(scene: try TestServer.example("tabbar.scene.json"))
        let stored = try await taptrace.audit(scene: scene.sceneID)
        #expect(stored.unreachableElements.map(\.id) == audit.unreachableElements.map(\.id))
        #expect(try await taptrace.audit(scene: scene.sceneID, version: 1) == stored)
    }

    @Test func auditOfAReachableButton() async throws {
        let audit = try await taptrace.audit(scene: try TestServer.example("checkout.scene.json"))
        let buy = try #require(audit.element("buyButton"))
        #expect(buy.status == .hittable)
        #expect(buy.hittable)
        #expect(!audit.unreachableElements.contains { $0.id == "buyButton" })
    }

    @Test func badSceneIsAProblemWithPointers() async throws {
        let scene = Data(#"""
            {"format": "taptrace/scene@1",
             "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "alpha": 3,
                          "subviews": [{"id": "W", "class": "UIView", "frame": [0, 0, 10, 10]}]}]}
            """#.utf8)
        let problem = try await #require(throws: TapTraceProblem.self) { try await taptrace.upload(scene: scene) }
        #expect(problem.status == 422)
        #expect(problem.type == "https://taptrace.dev/problems/validation")
        #expect(problem.issues.count == 2)
        #expect(problem.issue(at: "/windows/0/alpha")?.detail.contains("between 0 and 1") == true)
        #expect(problem.issue(at: "/windows/0/subviews/0/id")?.detail.contains("duplicate id") == true)
        #expect(problem.description.contains("/windows/0/alpha: "))

        // The stateless routes answer alike, with pointers into their own bodies.
        let dispatched = try await #require(throws: TapTraceProblem.self) {
            try await taptrace.dispatch(scene: scene, touches: try TestServer.example("checkout.touches.json"))
        }
        #expect(dispatched.issue(at: "/scene/windows/0/alpha") != nil)
        let audited = try await #require(throws: TapTraceProblem.self) { try await taptrace.audit(scene: scene) }
        #expect(audited.issue(at: "/windows/0/alpha") != nil)
    }

    @Test func unknownElementIsAProblem() async throws {
        let scene = try await taptrace.upload(scene: try TestServer.example("checkout.scene.json"))
        let problem = try await #require(throws: TapTraceProblem.self) {
            try await taptrace.tap("checkoutButton", in: scene.sceneID, label: "no such element")
        }
        #expect(problem.status == 422)
        let issue = try #require(problem.issue(at: "/touches/gestures/0/tap/view"))
        #expect(issue.detail.contains("\"checkoutButton\""))
    }

    @Test func ambiguousElementIsAProblem() async throws {
        // Two buttons labelled "Buy": a label names an element only when it names one view.
        let scene = Data(#"""
            {"format": "taptrace/scene@1",
             "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": [
                 {"id": "buyTop", "class": "UIButton", "label": "Buy", "frame": [20, 100, 120, 44]},
                 {"id": "buyBottom", "class": "UIButton", "label": "Buy", "frame": [20, 700, 120, 44]}]}]}
            """#.utf8)
        let stored = try await taptrace.upload(scene: scene)
        let problem = try await #require(throws: TapTraceProblem.self) { try await taptrace.tap("Buy", in: stored.sceneID) }
        #expect(problem.status == 422)
        let issue = try #require(problem.issue(at: "/touches/gestures/0/tap/view"))
        #expect(issue.detail.contains("buyTop") && issue.detail.contains("buyBottom"))

        // By id, each one is found.
        #expect(try await taptrace.tap("buyBottom", in: stored.sceneID).firstResponderID == "buyBottom")
    }

    @Test func unknownSceneAndRunAreNotFound() async throws {
        let scene = try await #require(throws: TapTraceProblem.self) { try await taptrace.tap("buyButton", in: "scn_aaaaaaaaaaaa") }
        #expect(scene.status == 404)
        let run = try await #require(throws: TapTraceProblem.self) { try await taptrace.run("run_aaaaaaaaaaaa") }
        #expect(run.status == 404)
    }

    @Test func malformedJSONIsRefusedBeforeSending() async throws {
        let error = try await #require(throws: TapTraceClientError.self) {
            try await taptrace.dispatch(scene: Data("{\"format\": ".utf8), touches: try TestServer.example("checkout.touches.json"))
        }
        guard case let .malformedJSON(argument, _) = error else {
            Issue.record("expected malformedJSON, got \(error)")
            return
        }
        #expect(argument == "scene")
    }
}
