@testable import TapTraceJSON
import Testing

struct JSONTests {
    @Test func parsesScalarsAndEscapes() throws {
        let t = try JSONTape(parsing: #"{"a": [1, -2.5, 1e3, 0.1, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00"}"#)
        let a = t.member(t.root, "a")!
        #expect(Array(t.elements(a)).map { t.kind($0) } == [.number, .number, .number, .number, .bool, .bool, .null])
        #expect(Array(t.elements(a)).prefix(4).map { t.number($0)! } == [1, -2.5, 1000, 0.1])
        #expect(t.string(t.member(t.root, "s")!) == "x\"\\/\né😀")
    }

    /// Clinger's fast path and the slow path give the correctly rounded double.
    @Test(arguments: ["0.1", "0.30000000000000004", "123456.789", "1e-7", "9007199254740993", "2.2250738585072014e-308", "-0"])
    func numbersRoundTrip(_ text: String) throws {
        let t = try JSONTape(parsing: text)
        #expect(t.number(0) == Double(text)!)
    }

    @Test(arguments: [("{", 1, 2, "unterminated object"), ("[1,]", 1, 4, "expected a value"), ("{\"a\" 1}", 1, 6, "expected ':'"),
                      ("01", 1, 2, "leading zeros"), ("\"a\nb\"", 1, 3, "control character"), ("[1] 2", 1, 5, "after the JSON value"),
                      ("{\"a\":1,\n\"b\":tru}", 2, 5, "invalid literal")])
    func syntaxErrorsPointAtTheProblem(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        do {
            _ = try JSONTape(parsing: text)
            Issue.record("expected an error for \(text)")
        } catch {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test func rawBytesOfNestedValues() throws {
        let text = #"{"x": {"y": [1, {"z": "q"}], "w": "e\"s"}, "n": 5}"#
        let t = try JSONTape(parsing: text)
        let x = t.member(t.root, "x")!
        #expect(String(decoding: t.rawBytes(x), as: UTF8.self) == #"{"y": [1, {"z": "q"}], "w": "e\"s"}"#)
        let w = t.member(x, "w")!
        #expect(String(decoding: t.rawBytes(w), as: UTF8.self) == #""e\"s""#)
    }

    @Test func writerIsDeterministicAndEscapes() {
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.number(100.0)
        w.key("b"); w.number(0.1)
        w.key("c"); w.string("q\"\n\u{1}é")
        w.key("d"); w.numbers(1, 2.5)
        w.key("e"); w.number(.nan)
        w.key(static: "f"); w.string(static: "g")
        w.endObject()
        #expect(w.text == #"{"a":100,"b":0.1,"c":"q\"\n\u0001é","d":[1,2.5],"e":null,"f":"g"}"#)
        var pretty = JSONWriter(indent: 2)
        pretty.beginObject(); pretty.key("a"); pretty.beginArray(); pretty.number(1); pretty.endArray(); pretty.endObject()
        #expect(pretty.text == "{\n  \"a\": [\n    1\n  ]\n}")
    }

    @Test func writerCopiesDoNotShareOutput() {
        var a = JSONWriter()
        a.beginArray()
        var b = a
        b.number(2)
        a.number(1)
        a.endArray(); b.endArray()
        #expect(a.text == "[1]" && b.text == "[2]")
    }
}
