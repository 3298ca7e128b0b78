import Foundation
import Testing
@testable import TapTraceCore

/// The compact result (`indent: 0`) writes its trace with `TraceJSON`'s byte emitter, the
/// indented one with `JSONWriter`. Both must say the same thing byte for byte once the
/// indentation is taken out: every shortcut of the emitter (cached selectors, a view's ref
/// copied from where it was first written) is checked against the plain writer here.
struct CompactEncodingTests {
    /// `json` without the whitespace between tokens (strings kept as they are).
    static func minified(_ json: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(json.count)
        var inString = false, escaped = false
        for b in json {
            if inString {
                out.append(b)
                if escaped { escaped = false } else if b == 0x5C { escaped = true } else if b == 0x22 { inString = false }
            } else if b == 0x22 {
                inString = true
                out.append(b)
            } else if b != 0x20 && b != 0x0A && b != 0x09 && b != 0x0D {
                out.append(b)
            }
        }
        return out
    }

    static func requestBytes(_ caseName: String) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: ConformanceTests.folder.appendingPathComponent(caseName)))
        return ConformanceChecker.request(from: try JSONTape(parsing: bytes))
    }

    @Test(arguments: ConformanceTests.caseNames)
    func compactEqualsIndentedWithoutWhitespace(_ caseName: String) throws {
        let result = try TapTrace.dispatch(json: try Self.requestBytes(caseName))
        let compact = ResultEncoder.encode(result)
        let indented = ResultEncoder.encode(result, indent: 2)
        #expect(compact.count > 0 && indented.count > compact.count)
        #expect(String(decoding: compact, as: UTF8.self) == String(decoding: Self.minified(indented), as: UTF8.self),
                "\(caseName): the compact trace differs from JSONWriter's")
    }

    /// The same view named many times (receiver, hit-test result, touch argument), in a scene
    /// whose ids and classes need escaping: the copies must equal the first writing.
    @Test func repeatedViewsWithEscapedNames() throws {
        let request = #"""
        {"scene": {"format": "taptrace/scene@1", "windows": [{"id": "w\"1", "class": "UIWindow", "frame": [0, 0, 100, 100],
          "subviews": [{"id": "b\\é", "class": "My\"Button", "frame": [10, 10, 50, 50],
            "subviews": [{"id": "inner\u0001", "class": "UIView", "frame": [0, 0, 10, 10]}]}]}]},
         "touches": {"format": "taptrace/touches@1", "gestures": [{"tap": [20, 20], "t": 0}, {"tap": [15, 15], "t": 1}]}}
        """#
        let result = try TapTrace.dispatch(json: Array(request.utf8))
        let compact = String(decoding: ResultEncoder.encode(result), as: UTF8.self)
        #expect(compact == String(decoding: Self.minified(ResultEncoder.encode(result, indent: 2)), as: UTF8.self))
        let escapedRef = #"{"id":"b\\é","class":"My\"Button"}"#
        #expect(compact.components(separatedBy: escapedRef).count - 1 >= 6, "the button is named again and again")
    }
}
