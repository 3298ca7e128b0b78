import Foundation
import Testing

/// `taptrace audit` (issue 32, item 6), on examples/: exit 1 when an element is unreachable,
/// 0 otherwise, 2 for bad input; JSON, --text and --junit.
extension CLITests {
    @Test func auditExitsZeroWhenEverythingIsReachable() throws {
        // The overlay passes touches through (hitTest override): the button is reachable.
        let r = try run(["audit", CLITests.example("overlay.scene.json")])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix(#"{"elements":[{"id":"playButton","class":"UIButton","interactions":["control","targets"],"point":[195,625]"#))
        #expect(r.stdout.hasSuffix(#""count":1,"hittable":1,"partlyReachable":0,"offscreen":0,"unreachable":0,"small":0}"# + "\n"))
        let checkout = try run(["audit", CLITests.example("checkout.scene.json"), "--text"])
        #expect(checkout.status == 0 && checkout.stdout.contains("0 unreachable"))
    }

    @Test func auditExitsOneWhenSomethingIsUnreachable() throws {
        // The sheet in front of the tab bar takes its taps.
        let r = try run(["audit", CLITests.example("tabbar.scene.json"), "--pretty"])
        #expect(r.status == 1)
        #expect(r.stdout.contains(#""unreachable": 4"#) && r.stdout.contains(#""kind": "covered""#))
        let text = try run(["audit", CLITests.example("tabbar.scene.json"), "--text"])
        #expect(text.status == 1)
        #expect(text.stdout.hasPrefix("FAIL tabHome (TabItemControl) at (65, 802): unreachable; the centre goes to sheet\n    1. [H1] sheet is in front of tabsRoot"))
        #expect(text.stdout.hasSuffix("4 interactive elements: 0 hittable, 0 partly reachable, 0 offscreen, 4 unreachable; 0 smaller than 44 × 44 pt\n"))
        // The same scene, the same bytes.
        #expect(try run(["audit", CLITests.example("tabbar.scene.json"), "--text"]).stdout == text.stdout)
    }

    @Test func auditWritesJUnit() throws {
        let file = directory.url.appendingPathComponent("audit.xml").path
        let r = try run(["audit", CLITests.example("tabbar.scene.json"), "--junit", file])
        #expect(r.status == 1)
        let xml = try String(contentsOfFile: file, encoding: .utf8)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(xml.contains(#"tests="4" failures="4""#))
        #expect(xml.contains(#"<testcase classname=""#) && xml.contains(#"name="tabHome (TabItemControl)">"#))
        #expect(xml.contains(#"<failure type="failure" message="unreachable: the centre (65, 802) goes to sheet">"#))
        let passing = directory.url.appendingPathComponent("ok.xml").path
        #expect(try run(["audit", CLITests.example("overlay.scene.json"), "--junit", passing]).status == 0)
        #expect(try String(contentsOfFile: passing, encoding: .utf8).contains(#"tests="1" failures="0""#))
    }

    @Test func auditRefusesBadInputWithTwo() throws {
        let invalid = try run(["audit", try temp(#"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 10]}]}"#)])
        #expect(invalid.status == 2 && invalid.stdout.isEmpty && invalid.stderr.contains(#""status": 422"#))
        let malformed = try run(["audit", "-"], stdin: "{\"windows\": ")
        #expect(malformed.status == 2 && malformed.stderr.contains(#""status": 400"#))
        let missing = try run(["audit", "/nonexistent/scene.json"])
        #expect(missing.status == 2 && missing.stderr.contains("Cannot read"))
        let unwritable = try run(["audit", CLITests.example("overlay.scene.json"), "--junit", "/nonexistent/dir/out.xml"])
        #expect(unwritable.status == 2 && unwritable.stderr.contains("Cannot write"))
    }
}
