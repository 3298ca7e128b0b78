import Foundation
import Testing

/// `taptrace import auto|…` with `--name` and `--ids` (issue 30, items 1, 2 and 4), on the
/// dumps shipped in examples/.
extension CLITests {
    static func example(_ name: String) -> String {
        packageRoot.appendingPathComponent("examples").appendingPathComponent(name).path
    }

    @Test func importAutoRecognisesNamesAndKeepsStableIds() throws {
        let r = try run(["import", "auto", CLITests.example("detail.dump.txt"), "--name", "Detail", "--with-warnings"])
        #expect(r.status == 0)
        #expect(r.stderr.contains("note: read as recursive-description"))
        #expect(r.stdout.hasPrefix(#"{"format":"recursive-description","scene":{"format":"taptrace/scene@1","name":"Detail""#))
        #expect(r.stdout.contains(#""id":"UIButton:Button","class":"UIButton","label":"Button","address":"0x7fc94b63b7c0""#))
        // The same file gives the same bytes.
        #expect(try run(["import", "auto", CLITests.example("detail.dump.txt"), "--name", "Detail", "--with-warnings"]).stdout == r.stdout)
        let byAddress = try run(["import", "recursive-description", CLITests.example("detail.dump.txt"), "--ids", "address"])
        #expect(byAddress.stdout.contains(#""id":"UIButton-0x7fc94b63b7c0""#))
        // A re-capture after a relaunch: the same ids.
        let next = try run(["import", "auto", CLITests.example("detail-next-build.dump.txt")])
        let ids = { (json: String) in json.matches(of: /"id":"([^"]*)"/).map { String($0.output.1) } }
        #expect(ids(next.stdout) == ids(try run(["import", "auto", CLITests.example("detail.dump.txt")]).stdout))
    }

    @Test func importRefusalsExitTwo() throws {
        let wrong = try run(["import", "recursive-description", CLITests.example("settings.page-source.xml")])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("taptrace import appium"))
        let unknown = try run(["import", "auto", "-"], stdin: "hello\n")
        #expect(unknown.status == 2 && unknown.stderr.contains(#""line": 1"#) && unknown.stderr.contains("cannot tell which dump"))
        let badIds = try run(["import", "auto", CLITests.example("detail.dump.txt"), "--ids", "pointer"])
        #expect(badIds.status != 0 && badIds.stdout.isEmpty)
        let emptyName = try run(["import", "auto", CLITests.example("detail.dump.txt"), "--name", " "])
        #expect(emptyName.status != 0 && emptyName.stdout.isEmpty)
    }
}
