import Foundation
import Testing
import TapTraceClient

/// Keys, shakes, remote control and the first responder (contract §2.1), built with the
/// client's helpers and read from the typed result.
@Suite struct NonTouchEventTests {
    /// An editor: the title field is the first responder at t = 0; its view controller has
    /// ⌘S → saveDocument:, which it implements.
    static let editor = Data(#"""
        {"format": "taptrace/scene@1", "name": "Editor with a hardware keyboard",
         "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate", "isResponder": true},
                 "focusedResponder": "titleField"},
         "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "isKey": true, "subviews": [
             {"id": "editorRoot", "class": "UIView", "frame": [0, 0, 390, 844],
              "viewController": {"id": "editorVC", "class": "EditorViewController", "implements": ["saveDocument:"],
                                 "keyCommands": [{"input": "s", "modifierFlags": ["command"], "action": "saveDocument:"}]},
              "subviews": [{"id": "titleField", "class": "UITextField", "label": "Title", "frame": [20, 100, 350, 44]}]}]}]}
        """#.utf8)
    static let chain = ["titleField", "editorRoot", "editorVC", "W", "UIApplication", "AppDelegate"]

    // MARK: The helpers (no server)

    @Test func keysAsUIKitReportsThem() throws {
        let save = try TapTrace.Key.key("s", .command)
        #expect(save == .init(characters: "s", charactersIgnoringModifiers: "s", keyCode: "keyboardS", modifierFlags: [.command]))
        let capital = try TapTrace.Key.key("S")
        #expect(capital.characters == "S" && capital.charactersIgnoringModifiers == "s" && capital.modifierFlags == [.shift])
        #expect(try TapTrace.Key.key("a", .command, .shift).modifierFlags == [.shift, .command])
        #expect(try TapTrace.Key.key("Return").characters == "\r")
        #expect(try TapTrace.Key.key("Return").keyCode == "keyboardReturnOrEnter")
        #expect(try TapTrace.Key.key("Escape").charactersIgnoringModifiers == "UIKeyInputEscape")
        #expect(try TapTrace.Key.key("Up").keyCode == "keyboardUpArrow")
        #expect(try TapTrace.Key.key("Tab").characters == "\t")
        #expect(try TapTrace.Key.key("Backspace").characters == "\u{8}")
        #expect(try TapTrace.Key.key("F1").characters == "UIKeyInputF1")
        #expect(try TapTrace.Key.key("0").keyCode == "keyboard0")
        #expect(throws: UnknownKeyError.self) { try TapTrace.Key.key("Hyper") }
    }

    @Test func recordsOfEachKind() throws {
        let press = TapTrace.TouchEvent.keyPress(try .key("a"), id: "P2", at: 0.1)
        #expect(press.map(\.t) == [0.1, 0.18])
        #expect(press.map { $0.presses?.first?.phase } == [.began, .ended])
        #expect(press.allSatisfy { $0.presses?.first?.id == "P2" && $0.presses?.first?._type == .keyboard })
        let select = TapTrace.TouchEvent.press(.select)
        #expect(select.first?.presses?.first?.key == nil && select.first?.presses?.first?._type == .select)
        let shake = TapTrace.TouchEvent.shake(at: 1)
        #expect(shake.map(\.t) == [1, 1.4])
        #expect(shake.map { $0.motion?.phase } == [.began, .ended])
        #expect(TapTrace.TouchEvent.remoteControl(.togglePlayPause, at: 2).remoteControl?.subtype == .togglePlayPause)
        #expect(TapTrace.TouchEvent.become("titleField").responder?.become == "titleField")
        #expect(TapTrace.TouchEvent.resign("titleField").responder?.resign == "titleField")

        // Encoded as the contract writes them.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(TapTrace.TouchEvent.keyPress(try .key("s", .command))[0]))
        let record = try #require(json as? [String: Any])
        let change = try #require((record["presses"] as? [[String: Any]])?.first)
        #expect(change["type"] as? String == "keyboard")
        #expect((change["key"] as? [String: Any])?["keyCode"] as? String == "keyboardS")
    }

    // MARK: Against the server

    @Test func commandSAndATypedKey() async throws {
        let server = try TestServer()
        let scene = try await server.client.upload(scene: Self.editor)
        let touches = TapTrace.Touches(events:
            TapTrace.TouchEvent.keyPress(try .key("s", .command), id: "P1")
            + TapTrace.TouchEvent.keyPress(try .key("a"), id: "P2", at: 0.5))
        let run = try await server.client.dispatch(touches, in: scene.sceneID, label: "save and type")
        let result = run.resultDocument
        #expect(result.initialKeyResponderID == "titleField")
        #expect(result.finalKeyResponderID == "titleField")
        let save = try #require(run.press("P1"))
        #expect(save.chain == Self.chain)
        #expect(save.keyCommand == "editorVC.keyCommands[0]")
        #expect(save.source == .firstResponder)
        #expect(run.actionNames == ["saveDocument:"])
        #expect(run.actions.first?.via == .keyCommand)
        let typed = try #require(run.press("P2"))
        #expect(typed.textInput == "titleField")
        #expect(typed.handledBy == "UIApplication")
        #expect(result.motions == [] && result.remoteControls == [] && result.responderChanges == [])
    }

    @Test func shortcuts() async throws {
        let server = try TestServer()
        let scene = try await server.client.upload(scene: Self.editor)
        let saved = try await server.client.pressKey(try .key("s", .command), in: scene.sceneID, label: "⌘S")
        #expect(saved.actionNames == ["saveDocument:"])
        #expect(saved.label == "⌘S")

        let shaken = try await server.client.shake(in: scene.sceneID)
        let motions = try #require(shaken.resultDocument.motions)
        #expect(motions.map(\.phase) == [.began, .ended])
        #expect(motions.first?.responder == "titleField")

        let remote = try await server.client.remoteControl(.togglePlayPause, in: scene.sceneID)
        #expect(remote.resultDocument.remoteControls?.map(\.subtype) == ["togglePlayPause"])
    }

    @Test func resignAndBecome() async throws {
        let server = try TestServer()
        let result = try await server.client.dispatch(
            scene: try JSONDecoder().decode(TapTrace.Scene.self, from: Self.editor),
            touches: .init(events: [.resign("titleField"), .become("titleField", at: 1)]))
        let changes = try #require(result.responderChanges)
        #expect(changes.map(\.call) == [.resign, .become])
        #expect(changes.map(\.result) == [true, true])
        #expect(changes.map(\.to) == [nil, "titleField"])
    }

    @Test func aTouchOnlyResultHasNone() async throws {
        let server = try TestServer()
        let result = try await server.client.dispatch(
            scene: try TestServer.example("checkout.scene.json"), touches: try TestServer.example("checkout.touches.json"))
        #expect(result.keyResponder == nil && result.presses == nil)
    }
}
