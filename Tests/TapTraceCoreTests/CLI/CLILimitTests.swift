import Foundation
import SceneTestSupport
import TestSupport
import Testing

/// The CLI has `taptrace serve`'s request limits, off unless a flag or a TAPTRACE_MAX_*
/// variable sets them (issue 34, item 1): past one, exit code 2 and the same `limit-exceeded`
/// problem document on standard error.
final class CLILimitTests {
    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }
    deinit { directory.remove() }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    /// Runs `taptrace` with `environment` added to a copy of this process's without TAPTRACE_*.
    func run(_ args: [String], environment: [String: String] = [:]) throws -> Output {
        let exe = try #require(CLITests.executable, "build the taptrace executable first (swift build)")
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for key in env.keys where key.hasPrefix("TAPTRACE_") { env[key] = nil }
        for (key, value) in environment { env[key] = value }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = Pipe()
        try p.run()
        // Standard error is read on another thread while standard output is read here: a
        // large output would fill a pipe's buffer and block the process.
        let e = DataBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async { e.data = err.fileHandleForReading.readDataToEndOfFile(); done.signal() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e.data, as: UTF8.self))
    }

    private final class DataBox: @unchecked Sendable { var data = Data() }

    func file(_ text: String, _ name: String = UUID().uuidString + ".json") throws -> String {
        let url = directory.url.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The `limit` member of the problem on standard error, after checking exit code 2.
    func limit(_ output: Output, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(output.status == 2, "\(output.stderr.prefix(300))", sourceLocation: sourceLocation)
        let problem = try #require(try JSONSerialization.jsonObject(with: Data(output.stderr.utf8)) as? [String: Any],
                                   sourceLocation: sourceLocation)
        #expect(problem["type"] as? String == "https://taptrace.dev/problems/limit-exceeded", sourceLocation: sourceLocation)
        #expect(problem["status"] as? Int == 422, sourceLocation: sourceLocation)
        let limit = try #require(problem["limit"] as? [String: Any], sourceLocation: sourceLocation)
        #expect(limit["name"] as? String == name, sourceLocation: sourceLocation)
        return limit
    }

    static let scene = Scenes.scene(Scenes.touchView + "}")
    /// 1 + 30 + 1 = 32 touch records.
    static let drag = #"{"gestures": [{"drag": {"from": [50, 150], "to": [150, 250]}, "steps": 30}]}"#

    /// Off by default; on with the flag or the variable; `off` lifts a variable's limit.
    @Test func dispatchAppliesNoLimitUnlessAsked() throws {
        let request = try file(Scenes.request(Self.scene, Self.drag))
        let free = try run(["dispatch", request])
        #expect(free.status == 0, "\(free.stderr)")
        let flagged = try limit(try run(["dispatch", request, "--max-records", "31"]), "records")
        #expect(flagged["maximum"] as? Int == 31 && flagged["size"] as? Int == 32)
        _ = try limit(try run(["dispatch", request], environment: ["TAPTRACE_MAX_RECORDS": "31"]), "records")
        #expect(try run(["dispatch", request, "--max-records", "off"], environment: ["TAPTRACE_MAX_RECORDS": "31"]).status == 0)
        #expect(try run(["dispatch", request, "--max-records", "32"]).status == 0)

        let entries = try limit(try run(["dispatch", request, "--max-trace-entries", "20"]), "trace-entries")
        #expect(entries["sizeIsLowerBound"] as? Bool == true)
        _ = try limit(try run(["dispatch", request, "--max-views", "2"]), "views")
        let bytes = try limit(try run(["dispatch", request, "--max-response-bytes", "1K"]), "response-bytes")
        #expect(bytes["maximum"] as? Int == 1024)
        _ = try limit(try run(["dispatch", request, "--text", "--max-response-bytes", "100"]), "response-bytes")
        let bad = try run(["dispatch", request, "--max-records", "none"])
        #expect(bad.status != 0 && bad.stderr.contains("--max-records"))
    }

    /// The other commands take the same flags.
    @Test func everyCommandTakesTheLimits() throws {
        let request = try file(Scenes.request(Self.scene, Self.drag))
        _ = try limit(try run(["why", request, "--view", "V", "--max-records", "10"]), "records")
        _ = try limit(try run(["why", request, "--view", "V", "--max-trace-entries", "20"]), "trace-entries")
        let testFile = try file(#"{"name": "drag", "scene": \#(Self.scene), "touches": \#(Self.drag), "expect": {"firstResponder": null}}"#,
                                "drag.case.json")
        #expect(try run(["check", testFile]).status != 2)
        _ = try limit(try run(["check", testFile, "--max-records", "10"]), "records")
        let traced = try limit(try run(["check", testFile, "--max-trace-entries", "20"]), "trace-entries")
        #expect(traced["maximum"] as? Int == 20)
        let scene = try file(Self.scene)
        _ = try limit(try run(["audit", scene, "--max-views", "2"]), "views")
        _ = try limit(try run(["hit-test", scene, "50", "150", "--max-views", "2"]), "views")
        _ = try limit(try run(["explain", scene, "50", "150", "--target", "V", "--max-views", "2"]), "views")
        let dump = CLITests.packageRoot.appendingPathComponent("examples/detail.dump.txt").path
        #expect(try run(["import", "recursive-description", dump]).status == 0)
        _ = try limit(try run(["import", "recursive-description", dump, "--max-views", "2"]), "views")
    }
}
