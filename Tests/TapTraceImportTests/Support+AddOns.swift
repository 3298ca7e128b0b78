import Foundation
import TapTraceCore
@testable import TapTraceImport
import Testing

extension Fixtures {
    /// A fixture's dump as it was pasted, without its `# SOURCE:` line: fixtures of one
    /// debugger session put one after another are one paste.
    static func pasted(_ prefix: String) throws -> String {
        let text = String(decoding: try named(prefix), as: UTF8.self)
        guard text.hasPrefix("# SOURCE:"), let newline = text.firstIndex(of: "\n") else { return text }
        return String(text[text.index(after: newline)...])
    }
}

/// The error importing `text` as a recursiveDescription paste gives, or nil.
func pasteError(_ text: String) -> ImportError? {
    importError { () throws(ImportError) in try RecursiveDescriptionParser.parse(Array(text.utf8)) }
}

/// The add-on parsers run on their own, on a whole text (a fixture with its `# SOURCE:` line,
/// which `SourceText` skips and counts, or a short inline text).
enum AddOns {
    static func controllers(_ bytes: [UInt8]) throws(ImportError) -> [ControllerLine] {
        let src = try SourceText(bytes)
        return try ControllerHierarchyParser.parse(src, src.contentStart..<src.count)
    }

    static func controllers(_ text: String) throws(ImportError) -> [ControllerLine] {
        try controllers(Array(text.utf8))
    }

    static func recognizers(_ bytes: [UInt8]) throws(ImportError) -> [RecognizerDescription] {
        let src = try SourceText(bytes)
        return try RecognizerDescriptionParser.parse(src, src.contentStart..<src.count)
    }

    static func recognizers(_ text: String) throws(ImportError) -> [RecognizerDescription] {
        try recognizers(Array(text.utf8))
    }

    /// Each prompt line with the answer under it.
    static func controlTargets(_ bytes: [UInt8]) throws(ImportError) -> [ControlTargetAnswer] {
        let src = try SourceText(bytes)
        var prompts: [Range<Int>] = []
        var lo = src.contentStart
        while lo < src.count {
            let hi = src.lineEnd(from: lo)
            let line = src.string(lo..<hi)
            if line.hasPrefix("(lldb)") || line.hasPrefix("cy#") { prompts.append(lo..<hi) }
            lo = hi + 1
        }
        var out: [ControlTargetAnswer] = []
        for (k, p) in prompts.enumerated() {
            let end = k + 1 < prompts.count ? prompts[k + 1].lowerBound : src.count
            out.append(try ControlTargetsParser.parse(src, command: p, body: min(p.upperBound + 1, end)..<end))
        }
        return out
    }

    static func controlTargets(_ text: String) throws(ImportError) -> [ControlTargetAnswer] {
        try controlTargets(Array(text.utf8))
    }

    /// The error `body` throws, or nil.
    static func error<T>(_ body: () throws(ImportError) -> T) -> ImportError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}

extension Imported {
    /// The view printed with `address`.
    func view(address: String) throws -> ViewSpec {
        try #require(scene.views.first { $0.address == address }, "no view at \(address)")
    }

    func index(address: String) throws -> Int {
        try #require(scene.views.firstIndex { $0.address == address }, "no view at \(address)")
    }

    /// R9: the ids of the responder chain from the view printed with `address`.
    func responderChain(fromAddress address: String) throws -> [String] {
        let v = try index(address: address)
        return index.responderChain(from: .view(v), includeWindowScene: false).chain.map { index.ref($0).id }
    }

    /// The warning line that contains `fragment`.
    func warning(_ fragment: String) -> String? { warnings.first { $0.contains(fragment) } }
}

extension Fixtures {
    /// Line and column of a byte offset in a fixture, as an error would give them.
    static func location(of offset: Int, in bytes: [UInt8]) throws -> (Int, Int) {
        let l = try SourceText(bytes).location(of: offset)
        return (l.line, l.column)
    }
}
