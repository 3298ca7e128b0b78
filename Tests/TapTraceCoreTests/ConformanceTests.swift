import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceRuns
import Testing

/// Runs every case of ../shared/conformance (copied unchanged into Conformance/) through the
/// same path as `taptrace dispatch`: request bytes in, result document bytes out, and checks
/// `expect` with the semantics of that folder's README, by the checker `taptrace check` uses
/// (`CaseChecker`, TapTraceRuns).
struct ConformanceTests {
    static let folder = ConformanceCases.folder
    static var caseNames: [String] { ConformanceCases.names }

    @Test func allSharedCasesAreHere() {
        #expect(ConformanceTests.caseNames.count >= 27)
    }

    @Test(arguments: ConformanceTests.caseNames)
    func conformance(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: ConformanceTests.folder.appendingPathComponent(name)))
        let failures = try CaseChecker.run(caseBytes: bytes).failures.map(\.text)
        #expect(failures.isEmpty, Comment(rawValue: "\(name):\n" + failures.joined(separator: "\n")))
    }
}

/// The checker itself must be able to fail: each expectation kind, altered, is reported.
struct ConformanceCheckerTests {
    func altered(_ name: String, _ from: String, _ to: String) throws -> [String] {
        let url = ConformanceTests.folder.appendingPathComponent(name)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(from), "fixture text to alter is missing")
        return try CaseChecker.run(caseBytes: Array(text.replacingOccurrences(of: from, with: to).utf8)).failures.map(\.text)
    }

    @Test func detectsWrongFirstResponder() throws {
        let f = try altered("13-nil-target-action.case.json", "\"firstResponder\": \"B\"", "\"firstResponder\": \"P\"")
        #expect(f.contains { $0.hasPrefix("firstResponder") })
    }

    @Test func detectsCallOrderAndAbsence() throws {
        let f = try altered("22-touches-forwarded-to-view-controller.case.json",
                            "\"V touchesBegan:withEvent:\",\n   \"R touchesBegan:withEvent:\"",
                            "\"R touchesBegan:withEvent:\",\n   \"V touchesBegan:withEvent:\"")
        #expect(f.contains { $0.hasPrefix("calls") })
    }

    @Test func detectsWrongActionValue() throws {
        let f = try altered("21-drag-out-of-button.case.json", "\"buttonUpOutside:\",\n    \"t\": 0.15",
                            "\"buttonUpOutside:\",\n    \"t\": 0.2")
        #expect(f.contains { $0.hasPrefix("actions[2].t") })
    }

    @Test func detectsRecognizerStateOrder() throws {
        let f = try altered("15-require-to-fail-hold.case.json", "\"began\",\n    \"ended\"", "\"ended\",\n    \"began\"")
        #expect(f.contains { $0.hasPrefix("recognizers") })
    }
}
