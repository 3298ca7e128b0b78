import Foundation

/// The cases of ../shared/conformance, copied unchanged into Tests/TapTraceCoreTests/Conformance/.
public enum ConformanceCases {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("TapTraceCoreTests/Conformance")

    /// File names of the cases, sorted.
    public static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".case.json") }.sorted()
    }
}
