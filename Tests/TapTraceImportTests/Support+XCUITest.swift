import TapTraceCore
@testable import TapTraceImport
import Testing

extension Imported {
    /// An XCUITest `debugDescription` imported, named as the dump names elements
    /// (`XCUIElementTypeButton-0x…`) unless `ids` says otherwise.
    static func xcuitest(_ bytes: [UInt8], ids: ImportOptions.Identity = .address,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> Imported {
        try Imported(try XCUITestDescriptionParser.parse(bytes, ImportOptions(ids: ids)), sourceLocation: sourceLocation)
    }

    static func xcuitest(_ text: String, ids: ImportOptions.Identity = .address,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> Imported {
        try xcuitest(Array(text.utf8), ids: ids, sourceLocation: sourceLocation)
    }
}

/// The error importing `text` as a debugDescription throws, or nil when it imports.
func xcuitestError(_ text: String) -> ImportError? {
    importError { () throws(ImportError) in try XCUITestDescriptionParser.parse(Array(text.utf8)) }
}
