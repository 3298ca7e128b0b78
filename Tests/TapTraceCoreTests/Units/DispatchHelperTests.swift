import Testing
@testable import TapTraceCore

/// The helpers the dispatch uses to save allocations must say exactly what the plain Swift
/// they replaced said: trace notes are compared byte for byte with `String` interpolation and
/// `joined`, touch-keyed points with a dictionary, and entries recorded with arguments passed
/// one by one with entries recorded from a `TraceArgs` literal.
struct DispatchHelperTests {
    @Test func noteTextMatchesStringInterpolation() {
        let id = "card12.buy", names = ["list.delay", "card12.tap"], none: [String] = []
        #expect(NoteText("\(id) withheld by \(names, joinedBy: ", "); GV5").text
                == "\(id) withheld by \(names.joined(separator: ", ")); GV5")
        #expect(NoteText("(\(names, suffix: ".delaysTouchesBegan", joinedBy: ", "))").text
                == "(" + names.map { $0 + ".delaysTouchesBegan" }.joined(separator: ", ") + ")")
        #expect(NoteText("fire {\(names, prefix: ".", joinedBy: ", ")}").text
                == "fire {" + names.map { "." + $0 }.joined(separator: ", ") + "}")
        #expect(NoteText("[\(none, joinedBy: ", ")]").text == "[]")
        // Non-ASCII text survives the byte round trip.
        #expect(NoteText("\("Ünïcødé →") ok").text == "Ünïcødé → ok")

        var note: NoteText = "reset "
        note.append(names, joinedBy: ", ")
        note.append("; still .possible: ")
        note.append("x")
        #expect(note.text == "reset list.delay, card12.tap; still .possible: x")
        var empty = NoteText(capacity: 8)
        empty.append(none, prefix: ".", joinedBy: ", ")
        #expect(empty.text == "")
    }

    @Test func touchPointsBehaveLikeADictionary() {
        var points: TouchPoints = [3: Point(1, 2)]
        var dictionary: [Int: Point] = [3: Point(1, 2)]
        for (t, p) in [(5, Point(3, 4)), (3, Point(5, 6)), (7, Point(7, 8))] {
            points[t] = p
            dictionary[t] = p
        }
        for t in 0..<9 { #expect(points[t] == dictionary[t]) }
        points[5] = nil
        dictionary[5] = nil
        for t in 0..<9 { #expect(points[t] == dictionary[t]) }
        points.transformPoints { Point($0.x + 1, $0.y) }
        #expect(points[3] == Point(6, 6) && points[7] == Point(8, 8))
        points.removeAll()
        #expect(points.isEmpty && points[3] == nil)
    }

    @Test func argumentsOneByOneRecordTheSameEntries() {
        let ref = ObjectRef(id: "g", className: "UITapGestureRecognizer")
        let a = TraceArg("touch", .string("T1")), b = TraceArg("by", .objects([ref])), c = TraceArg("n", .number(2))
        var literal = TraceRecorder(viewRefs: [ObjectRef(id: "v", className: "UIView")])
        var oneByOne = literal
        literal.call(ref, "reset", [a, b], result: .bool(true), note: "n")
        literal.call(view: 0, "touchesBegan:withEvent:", [a, b, c])
        literal.marker(.withhold, ref, [a], note: "m")
        literal.marker(.flush, view: 0, [a, c])
        literal.call(ref, "action:")
        oneByOne.call(ref, "reset", args: a, b, result: .bool(true), note: "n")
        oneByOne.call(view: 0, "touchesBegan:withEvent:", args: a, nil, b, c)
        oneByOne.marker(.withhold, ref, args: a, note: "m")
        oneByOne.marker(.flush, view: 0, args: nil, a, c)
        oneByOne.call(ref, "action:", args: nil)
        #expect(literal.entries == oneByOne.entries)
        #expect(oneByOne.entries.map(\.args.count) == [2, 3, 1, 2, 0])
    }
}
