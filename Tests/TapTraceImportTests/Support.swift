import Foundation
import TapTraceCore
import TapTraceFormats
@testable import TapTraceImport
import Testing

/// The real dumps of ../shared/samples, copied unchanged (with their `# SOURCE:` line).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// The one fixture whose name starts with `prefix`.
    static func named(_ prefix: String) throws -> [UInt8] {
        let matches = names.filter { $0.hasPrefix(prefix) }
        try #require(matches.count == 1, "expected one fixture named \(prefix)…, found \(matches)")
        return try bytes(matches[0])
    }
}

/// Checks every importer result must pass, and answers hit-test questions about it.
struct Imported {
    let result: ImportResult
    let index: SceneIndex

    init(_ result: ImportResult, sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.result = result
        let issues = SceneValidator.validate(result.scene)
        #expect(issues.isEmpty, "validation: \(issues.issues)", sourceLocation: sourceLocation)
        // Round trip through the scene document.
        let encoded = SceneEncoder.encode(result.scene)
        let decoded = try InputDecoder.scene(encoded)
        #expect(decoded == result.scene, "scene does not round-trip", sourceLocation: sourceLocation)
        index = SceneIndex(validated: result.scene)
    }

    // The sample tests name views as the dump does (`ids: .address`), so a test reads against
    // the dump's own lines; `ImportIdentityTests` checks the stable ids.

    static func recursiveDescription(_ bytes: [UInt8], ids: ImportOptions.Identity = .address,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Imported {
        try Imported(try RecursiveDescriptionParser.parse(bytes, ImportOptions(ids: ids)), sourceLocation: sourceLocation)
    }

    static func recursiveDescription(_ text: String, ids: ImportOptions.Identity = .address,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws -> Imported {
        try recursiveDescription(Array(text.utf8), ids: ids, sourceLocation: sourceLocation)
    }

    static func appium(_ bytes: [UInt8], ids: ImportOptions.Identity = .address,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> Imported {
        try Imported(try AppiumSourceParser.parse(bytes, ImportOptions(ids: ids)), sourceLocation: sourceLocation)
    }

    static func appium(_ text: String, ids: ImportOptions.Identity = .address,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> Imported {
        try appium(Array(text.utf8), ids: ids, sourceLocation: sourceLocation)
    }

    var scene: Scene { result.scene }
    var warnings: [String] { result.warnings }

    /// Id of the hit-test view at a screen point, nil when no window takes it.
    func hit(_ x: Double, _ y: Double) -> String? {
        HitTestReport.run(index, point: Point(x, y)).view?.id
    }

    func view(_ id: String) throws -> ViewSpec {
        try #require(scene.views.first { $0.id == id }, "no view \(id)")
    }

    func hasWarning(_ fragment: String) -> Bool { warnings.contains { $0.contains(fragment) } }
}

/// The error an import throws, or nil when it succeeds.
func importError(_ body: () throws(ImportError) -> ImportResult) -> ImportError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}
