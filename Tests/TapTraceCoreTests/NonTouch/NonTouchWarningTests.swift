import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import TapTraceRuns
import Testing

/// A key command whose action no responder implements is legal (KC4 skips it) but almost
/// certainly a mistake: the result warns, with a pointer into the scene document.
struct NonTouchWarningTests {
    static func scene(implements: String) -> String {
        Scenes.scene(#"{"id": "TF", "class": "UITextField", "frame": [20, 100, 350, 44]}"#,
                     vc: #""keyCommands": [{"input": "s", "modifierFlags": ["command"], "action": "saveDocument:"}, {"input": "f", "modifierFlags": ["command"], "action": "find:"}], "implements": [\#(implements)]"#,
                     app: #""focusedResponder": "TF""#)
    }

    @Test func aKeyCommandNobodyImplementsIsWarnedAbout() throws {
        let r = try Scenes.run(Self.scene(implements: #""saveDocument:""#), NonTouchScenarioTests.sc21Input)
        #expect(r.warnings == [ValidationIssue("/windows/0/subviews/0/viewController/keyCommands/1/action",
                                               "no responder of this scene implements find: (implements): the key command is skipped whenever it matches (KC4)")])
        let bytes = ResultEncoder.encode(r)
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""warnings":[{"pointer":"/windows/0/subviews/0/viewController/keyCommands/1/action","detail":"#))
        #expect(ResultEncoder.encode(r, indent: 2).count > bytes.count)
        #expect(try ResultDecoder.decode(bytes).warnings == r.warnings)
    }

    @Test func noWarningWhenSomeResponderImplementsIt() throws {
        let r = try Scenes.run(Self.scene(implements: #""saveDocument:", "find:""#), NonTouchScenarioTests.sc21Input)
        #expect(r.warnings.isEmpty)
        #expect(!String(decoding: ResultEncoder.encode(r), as: UTF8.self).contains("warnings"))
        // The warning depends on the scene, not on the run: a touch-only run warns too.
        let touched = try Scenes.run(Self.scene(implements: #""saveDocument:""#), Scenes.tap(100, 120))
        #expect(touched.warnings.count == 1)
    }
}
