import Foundation
import Testing

/// `taptrace check` (issue 32, item 5): test files run, failures shown as diffs, exit codes
/// 0/1/2, directories searched for *.case.json, JUnit XML written.
extension CLITests {
    /// examples/checkout.case.json with `expect` replaced by these members.
    func checkoutCase(expect: [String: Any], name: String? = nil) throws -> [String: Any] {
        var c = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: CLITests.example("checkout.case.json")))) as! [String: Any]
        c["expect"] = expect
        if let name { c["name"] = name }
        return c
    }

    func write(_ object: Any, to path: String) throws {
        let url = directory.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
    }

    @Test func checkExamplePasses() throws {
        let r = try run(["check", CLITests.example("checkout.case.json")])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.hasPrefix("PASS  "))
        #expect(r.stdout.contains("checkout.case.json  Buy button"))
        #expect(r.stdout.hasSuffix("1 case: 1 passed, 0 failed\n"))
        #expect(r.stderr.isEmpty)
        let stdin = try run(["check", "-"], stdin: try String(contentsOfFile: CLITests.example("checkout.case.json"), encoding: .utf8))
        #expect(stdin.status == 0 && stdin.stdout.hasPrefix("PASS  -  Buy button"))
    }

    @Test func checkFailureShowsDiffAndExitsOne() throws {
        try write(try checkoutCase(expect: ["recognizers": ["cardTap": ["ended"]], "firstResponder": "buyButton"], name: "wrong"),
                  to: "wrong.case.json")
        let r = try run(["check", directory.url.appendingPathComponent("wrong.case.json").path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL  "))
        #expect(r.stdout.contains("wrong.case.json  wrong\n      recognizers.cardTap: expected [.ended] in order, got [.possible, .failed, .possible]\n"))
        #expect(r.stdout.hasSuffix("1 case: 0 passed, 1 failed\n"))
        let json = try run(["check", "--json", directory.url.appendingPathComponent("wrong.case.json").path])
        #expect(json.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["failed"] as? Int == 1)
    }

    @Test func checkDirectoryRecursesSortedAndWritesJUnit() throws {
        try write(try checkoutCase(expect: ["firstResponder": "buyButton"], name: "b passes"), to: "suite/b.case.json")
        try write(try checkoutCase(expect: ["firstResponder": "card"], name: "a fails"), to: "suite/nested/deeper/a.case.json")
        try write(try checkoutCase(expect: ["firstResponder": "card"], name: "ignored"), to: "suite/notes.json")
        try write(try checkoutCase(expect: ["actions": []], name: "c & <fails>"), to: "suite/c.case.json")
        let suite = directory.url.appendingPathComponent("suite").path
        let junit = directory.url.appendingPathComponent("out.xml").path
        let r = try run(["check", suite, "--junit", junit])
        #expect(r.status == 1)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("PASS") || $0.hasPrefix("FAIL") } == [
            "PASS  \(suite)/b.case.json  b passes",
            "FAIL  \(suite)/c.case.json  c & <fails>",
            "FAIL  \(suite)/nested/deeper/a.case.json  a fails",
        ])
        #expect(lines.last == "3 cases: 1 passed, 2 failed")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"taptrace check\" tests=\"3\" failures=\"2\" errors=\"0\">"))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 3)
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(xml.contains("name=\"c &amp; &lt;fails&gt;\""))
        #expect(xml.contains("firstResponder: expected card, got buyButton"))
        // Deterministic: the same files, the same bytes.
        _ = try run(["check", suite, "--junit", junit + "2"])
        #expect(try String(contentsOfFile: junit + "2", encoding: .utf8) == xml)
    }

    @Test func checkBadInputExitsTwo() throws {
        var invalid = try checkoutCase(expect: ["recognizers": ["cardTap": ["fail"]]])
        invalid["colour"] = "red"
        try write(invalid, to: "bad/invalid.case.json")
        try write(try checkoutCase(expect: ["firstResponder": "buyButton"]), to: "bad/good.case.json")
        let bad = directory.url.appendingPathComponent("bad").path
        let r = try run(["check", bad])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)   // nothing is run when a file is invalid
        #expect(r.stderr.contains(#""status": 422"#) && r.stderr.contains("invalid.case.json: "))
        #expect(r.stderr.contains(#""pointer": "/expect/recognizers/cardTap/0""#) && r.stderr.contains(#""pointer": "/colour""#))
        let missing = try run(["check", "/nonexistent/dir"])
        #expect(missing.status == 2 && missing.stderr.contains("Cannot read"))
        let malformed = try run(["check", try temp("{\"scene\": ")])
        #expect(malformed.status == 2 && malformed.stderr.contains(#""status": 400"#))
        let empty = directory.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try run(["check", empty.path])
        #expect(none.status == 2 && none.stderr.contains("holds no .case.json file"))
    }
}
