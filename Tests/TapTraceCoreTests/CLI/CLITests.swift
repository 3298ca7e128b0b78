import Foundation
import SceneTestSupport
import TestSupport
@testable import TapTraceCore
import Testing

/// The `taptrace` command line, run as a process (contract §4): exit code 2 and a problem
/// document on stderr for bad input.
///
/// A class so that `deinit` removes the input files a test wrote (Swift Testing makes one
/// instance per test): they were left in the temporary folder, three per test run.
final class CLITests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable next to the test bundle (`swift build` puts both in .build/debug).
    static var executable: URL? {
        let candidates = [Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("taptrace"),
                          packageRoot.appendingPathComponent(".build/debug/taptrace")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    struct Output { var status: Int32; var stdout: String; var stderr: String }

    func run(_ args: [String], stdin: String? = nil) throws -> Output {
        let exe = try #require(CLITests.executable, "build the taptrace executable first (swift build)")
        let p = Process()
        p.executableURL = exe
        p.arguments = args
        let out = Pipe(), err = Pipe(), input = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = input
        try p.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// This test's input files.
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    deinit { directory.remove() }

    /// Writes `text` to a new file in ``directory`` and returns its path.
    func temp(_ text: String) throws -> String {
        let url = directory.url.appendingPathComponent("\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test func dispatchFromStdinAndText() throws {
        let request = Scenes.request(Scenes.scene(Scenes.touchView + "}"), Scenes.tap(50, 150))
        let json = try run(["dispatch", "-"], stdin: request)
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"{"format":"taptrace/result@1","firstResponder":{"id":"V","class":"TouchView"}"#))
        let text = try run(["dispatch", try temp(request), "--text"])
        #expect(text.status == 0)
        #expect(text.stdout.contains("V -> touchesBegan:withEvent: {T1}"))
        let swift = try run(["dispatch", try temp(request), "--text", "--names", "swift"])
        #expect(swift.stdout.contains("V -> touchesBegan(_:with:) {T1}"))
    }

    @Test func invalidInputExitsTwoWithProblem() throws {
        let bad = Scenes.request(Scenes.scene(#"{"id": "A", "class": "UIView", "frame": [0, 0, 10]}"#), Scenes.tap(1, 1))
        let r = try run(["dispatch", try temp(bad)])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains(#""status": 422"#) && r.stderr.contains("/scene/windows/0/subviews/0/subviews/0/frame"))
        let malformed = try run(["dispatch", "-"], stdin: "{\"scene\": ")
        #expect(malformed.status == 2 && malformed.stderr.contains(#""status": 400"#) && malformed.stderr.contains(#""line": 1"#))
        let missing = try run(["dispatch", "/nonexistent/file.json"])
        #expect(missing.status == 2 && missing.stderr.contains("Cannot read"))
    }

    @Test func hitTestAndExplain() throws {
        let scene = try temp(HitTestScenarioTests.overflowScene.replacingOccurrences(of: "CLIPS", with: "false"))
        let hit = try run(["hit-test", scene, "140", "190"])
        #expect(hit.status == 0)
        #expect(hit.stdout.contains(#""hitTestView":{"id":"C","class":"UIView"}"#))
        #expect(hit.stdout.contains(#""path":[{"id":"W","class":"UIWindow"},{"id":"R","class":"UIView"},{"id":"P","class":"UIView"},{"id":"C","class":"UIView"}]"#))
        let why = try run(["explain", scene, "170", "220", "--target", "C", "--text"])
        #expect(why.status == 0)
        #expect(why.stdout.contains("[H6]"))
        let unknown = try run(["explain", scene, "1", "1", "--target", "Nope"])
        #expect(unknown.status == 2 && unknown.stderr.contains("/target"))
        let knob = try run(["hit-test", scene, "1", "1", "--knob", "hitTestPasses=3"])
        #expect(knob.status == 2 && knob.stderr.contains("must be 1 or 2"))
    }

    @Test func inputFilesAreRemovedWithTheTest() throws {
        var suite: CLITests? = try CLITests()
        let path = try #require(suite).temp("{}")
        #expect(FileManager.default.fileExists(atPath: path))
        suite = nil
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
