@testable import TapTraceJSON
import Testing

/// JSON Patch (RFC 6902) and JSON Pointer (RFC 6901) on `JSONValue`.
struct JSONPatchTests {
    static func value(_ text: String) throws -> JSONValue { JSONValue(anyDepth: try JSONTape(parsing: text)) }
    static func patch(_ text: String) throws -> JSONPatch { try JSONPatch(tape: try JSONTape(parsing: text)) }

    /// The patched document as compact JSON.
    static func apply(_ patch: String, to document: String, maximumValues: Int? = nil) throws -> String {
        let bytes = try Self.patch(patch).apply(to: try JSONTape(parsing: document), maximumValues: maximumValues)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The error of a patch that must fail, read or applied.
    static func failure(_ patch: String, _ document: String, maximumValues: Int? = nil) throws -> JSONPatchError? {
        do {
            _ = try apply(patch, to: document, maximumValues: maximumValues)
            return nil
        } catch let error as JSONPatchError {
            return error
        }
    }

    // MARK: every operation

    @Test func addPutsNewMembersLastReplacesExistingOnesInPlaceAndInsertsIntoArrays() throws {
        let document = #"{"b":1,"a":[1,2]}"#
        #expect(try Self.apply(#"[{"op":"add","path":"/c","value":{"x":null}}]"#, to: document) == #"{"b":1,"a":[1,2],"c":{"x":null}}"#)
        #expect(try Self.apply(#"[{"op":"add","path":"/b","value":true}]"#, to: document) == #"{"b":true,"a":[1,2]}"#)
        #expect(try Self.apply(#"[{"op":"add","path":"/a/0","value":0}]"#, to: document) == #"{"b":1,"a":[0,1,2]}"#)
        #expect(try Self.apply(#"[{"op":"add","path":"/a/2","value":3}]"#, to: document) == #"{"b":1,"a":[1,2,3]}"#)
        #expect(try Self.apply(#"[{"op":"add","path":"/a/-","value":"end"}]"#, to: document) == #"{"b":1,"a":[1,2,"end"]}"#)
        #expect(try Self.apply(#"[{"op":"add","path":"","value":[7]}]"#, to: document) == "[7]")
        // The empty key is a key like any other.
        #expect(try Self.apply(#"[{"op":"add","path":"/","value":0}]"#, to: document) == #"{"b":1,"a":[1,2],"":0}"#)
    }

    @Test func removeTakesOutMembersAndElements() throws {
        let document = #"{"a":[1,2,3],"b":{"c":1,"d":2}}"#
        #expect(try Self.apply(#"[{"op":"remove","path":"/a/1"}]"#, to: document) == #"{"a":[1,3],"b":{"c":1,"d":2}}"#)
        #expect(try Self.apply(#"[{"op":"remove","path":"/b/c"}]"#, to: document) == #"{"a":[1,2,3],"b":{"d":2}}"#)
        #expect(try Self.apply(#"[{"op":"remove","path":"/b"}]"#, to: document) == #"{"a":[1,2,3]}"#)
    }

    @Test func replaceKeepsTheMembersPlace() throws {
        let document = #"{"a":1,"b":[1,2],"c":3}"#
        #expect(try Self.apply(#"[{"op":"replace","path":"/a","value":[0]}]"#, to: document) == #"{"a":[0],"b":[1,2],"c":3}"#)
        #expect(try Self.apply(#"[{"op":"replace","path":"/b/1","value":9.5}]"#, to: document) == #"{"a":1,"b":[1,9.5],"c":3}"#)
        #expect(try Self.apply(#"[{"op":"replace","path":"","value":"x"}]"#, to: document) == #""x""#)
    }

    @Test func moveIsARemoveThenAnAdd() throws {
        let document = #"{"a":{"x":1},"b":[1,2,3],"c":null}"#
        #expect(try Self.apply(#"[{"op":"move","from":"/a/x","path":"/c"}]"#, to: document) == #"{"a":{},"b":[1,2,3],"c":1}"#)
        #expect(try Self.apply(#"[{"op":"move","from":"/a","path":"/z"}]"#, to: document) == #"{"b":[1,2,3],"c":null,"z":{"x":1}}"#)
        // The target is read after the removal: the last element moved to the front.
        #expect(try Self.apply(#"[{"op":"move","from":"/b/2","path":"/b/0"}]"#, to: document) == #"{"a":{"x":1},"b":[3,1,2],"c":null}"#)
        #expect(try Self.apply(#"[{"op":"move","from":"/b/0","path":"/b/-"}]"#, to: document) == #"{"a":{"x":1},"b":[2,3,1],"c":null}"#)
        // Onto itself: nothing changes. Into a sibling whose name starts the same: allowed.
        #expect(try Self.apply(#"[{"op":"move","from":"/a","path":"/a"}]"#, to: document) == #"{"a":{"x":1},"b":[1,2,3],"c":null}"#)
        #expect(try Self.apply(#"[{"op":"move","from":"/a","path":"/ab"}]"#, to: #"{"a":1}"#) == #"{"ab":1}"#)
    }

    @Test func copyLeavesTheSourceAndCopiesAreIndependent() throws {
        let document = #"{"a":{"x":1},"b":[]}"#
        #expect(try Self.apply(#"[{"op":"copy","from":"/a","path":"/b/-"}]"#, to: document) == #"{"a":{"x":1},"b":[{"x":1}]}"#)
        // Changing the copy leaves the original alone.
        #expect(try Self.apply(#"[{"op":"copy","from":"/a","path":"/c"},{"op":"replace","path":"/c/x","value":2}]"#, to: document)
                == #"{"a":{"x":1},"b":[],"c":{"x":2}}"#)
        // The whole document into a part of itself.
        #expect(try Self.apply(#"[{"op":"copy","from":"","path":"/b/-"}]"#, to: document) == #"{"a":{"x":1},"b":[{"a":{"x":1},"b":[]}]}"#)
    }

    @Test func testComparesValuesNotTheirSpelling() throws {
        let document = #"{"n":1,"o":{"a":1,"b":[1,{"c":null}]},"s":"é","f":false}"#
        let passes = [
            #"{"op":"test","path":"/n","value":1.0}"#,
            #"{"op":"test","path":"/n","value":1e0}"#,
            #"{"op":"test","path":"/o","value":{"b":[1,{"c":null}],"a":1}}"#,
            #"{"op":"test","path":"/s","value":"\u00e9"}"#,
            #"{"op":"test","path":"/f","value":false}"#,
            #"{"op":"test","path":"","value":{"f":false,"s":"é","o":{"a":1,"b":[1,{"c":null}]},"n":1}}"#,
        ]
        for test in passes {
            #expect(try Self.apply("[\(test)]", to: document) == document, "\(test)")
        }
        let failures = [
            #"{"op":"test","path":"/n","value":"1"}"#,
            #"{"op":"test","path":"/o","value":{"a":1}}"#,
            #"{"op":"test","path":"/o","value":{"a":1,"b":[{"c":null},1]}}"#,
            #"{"op":"test","path":"/o/b/1","value":{"c":false}}"#,
            #"{"op":"test","path":"/f","value":null}"#,
            // The same text decomposed: other code points.
            #"{"op":"test","path":"/s","value":"e\u0301"}"#,
        ]
        for test in failures {
            let error = try #require(try Self.failure("[\(test)]", document), "\(test)")
            #expect(error.reason == .testFailed, "\(test)")
        }
        let error = try #require(try Self.failure(#"[{"op":"test","path":"/o/b","value":[2]}]"#, document))
        #expect(error.message == #"The test failed: the value at /o/b is [1,{"c":null}], not [2]."#)
    }

    // MARK: errors: each names the operation and the pointer

    @Test(arguments: [
        // reading the patch
        (#"{"op":"add"}"#, JSONPatchError.Reason.notAnArray, nil, nil),
        (#"[{"op":"test","path":"/s","value":"t"},5]"#, .notAnObject, 1, nil),
        (#"[{"op":"delete","path":"/a"}]"#, .unknownOperation, 0, "/a"),
        (#"[{"path":"/a"}]"#, .missingMember, 0, "/a"),
        (#"[{"op":"remove"}]"#, .missingMember, 0, nil),
        (#"[{"op":"add","path":"/x"}]"#, .missingMember, 0, "/x"),
        (#"[{"op":"replace","path":"/a"}]"#, .missingMember, 0, "/a"),
        (#"[{"op":"test","path":"/a"}]"#, .missingMember, 0, "/a"),
        (#"[{"op":"move","path":"/x"}]"#, .missingMember, 0, "/x"),
        (#"[{"op":"copy","path":"/x","value":1}]"#, .missingMember, 0, "/x"),
        (#"[{"op":1,"path":"/a"}]"#, .invalidMember, 0, "/a"),
        (#"[{"op":"remove","path":5}]"#, .invalidMember, 0, nil),
        (#"[{"op":"move","path":"/x","from":["/a"]}]"#, .invalidMember, 0, "/x"),
        (#"[{"op":"remove","path":"/a","path":"/s"}]"#, .invalidMember, 0, "/a"),
        (#"[{"op":"remove","path":"a/b"}]"#, .invalidPointer, 0, "a/b"),
        (#"[{"op":"remove","path":"/a~2"}]"#, .invalidPointer, 0, "/a~2"),
        (#"[{"op":"remove","path":"/a~"}]"#, .invalidPointer, 0, "/a~"),
        (#"[{"op":"copy","from":"a","path":"/x"}]"#, .invalidPointer, 0, "a"),
        // applying it
        (#"[{"op":"test","path":"/a/b/0","value":2}]"#, .testFailed, 0, "/a/b/0"),
        (#"[{"op":"remove","path":"/a/c"}]"#, .notFound, 0, "/a/c"),
        (#"[{"op":"replace","path":"/x","value":1}]"#, .notFound, 0, "/x"),
        (#"[{"op":"test","path":"/x/y","value":1}]"#, .notFound, 0, "/x/y"),
        (#"[{"op":"remove","path":"/s/x"}]"#, .notFound, 0, "/s/x"),
        (#"[{"op":"test","path":"/s","value":"t"},{"op":"move","from":"/nope","path":"/a/z"}]"#, .notFound, 1, "/nope"),
        (#"[{"op":"copy","from":"/a/b/x/y","path":"/z"}]"#, .invalidIndex, 0, "/a/b/x/y"),
        (#"[{"op":"copy","from":"/a/q","path":"/z"}]"#, .notFound, 0, "/a/q"),
        (#"[{"op":"remove","path":"/a/b/3"}]"#, .indexOutOfRange, 0, "/a/b/3"),
        (#"[{"op":"replace","path":"/a/b/-","value":1}]"#, .indexOutOfRange, 0, "/a/b/-"),
        (#"[{"op":"add","path":"/a/b/4","value":1}]"#, .indexOutOfRange, 0, "/a/b/4"),
        (#"[{"op":"remove","path":"/a/b/99999999999999999999999"}]"#, .indexOutOfRange, 0, "/a/b/99999999999999999999999"),
        (#"[{"op":"remove","path":"/a/b/01"}]"#, .invalidIndex, 0, "/a/b/01"),
        (#"[{"op":"add","path":"/a/b/x","value":1}]"#, .invalidIndex, 0, "/a/b/x"),
        (#"[{"op":"remove","path":"/a/b/-1"}]"#, .invalidIndex, 0, "/a/b/-1"),
        (#"[{"op":"add","path":"/a/x/y","value":1}]"#, .missingParent, 0, "/a/x/y"),
        (#"[{"op":"add","path":"/s/x","value":1}]"#, .missingParent, 0, "/s/x"),
        (#"[{"op":"add","path":"/a/b/7/x","value":1}]"#, .missingParent, 0, "/a/b/7/x"),
        (#"[{"op":"remove","path":"/s"},{"op":"move","from":"/a","path":"/s/t"}]"#, .missingParent, 1, "/s/t"),
        (#"[{"op":"move","from":"/a","path":"/a/b/0"}]"#, .moveIntoChild, 0, "/a/b/0"),
        (#"[{"op":"move","from":"","path":"/x"}]"#, .moveIntoChild, 0, "/x"),
        (#"[{"op":"remove","path":""}]"#, .removeWholeDocument, 0, ""),
    ] as [(String, JSONPatchError.Reason, Int?, String?)])
    func errorsNameTheOperationAndThePointer(_ patch: String, _ reason: JSONPatchError.Reason,
                                             _ operation: Int?, _ pointer: String?) throws {
        let document = #"{"a":{"b":[1,2,3]},"s":"t"}"#
        let error = try #require(try Self.failure(patch, document), "\(patch) must fail")
        #expect(error.reason == reason, "\(error)")
        #expect(error.operation == operation, "\(error)")
        #expect(error.pointer == pointer, "\(error)")
        #expect(error.message.hasSuffix("."), "a sentence: \(error.message)")
        #expect(error.message.count > 20, "\(error.message)")
    }

    @Test func messagesSayWhatTheDocumentHoldsWhereThePointerBreaksOff() throws {
        let document = #"{"windows":[{"subviews":[{"id":"a"},{"id":"b"}]}]}"#
        let outOfRange = try #require(try Self.failure(#"[{"op":"replace","path":"/windows/0/subviews/2/frame","value":[0,0,1,1]}]"#, document))
        #expect(outOfRange.description == "operation 0 (/windows/0/subviews/2/frame): /windows/0/subviews/2/frame does not exist: /windows/0/subviews has 2 elements, so index 2 is out of range (valid: 0 to 1).")
        let parent = try #require(try Self.failure(#"[{"op":"add","path":"/windows/0/overrides/hitTest","value":"self"}]"#, document))
        #expect(parent.message == #"Cannot add at /windows/0/overrides/hitTest: its parent /windows/0/overrides does not exist, as /windows/0 has no member "overrides"."#)
        let append = try #require(try Self.failure(#"[{"op":"add","path":"/windows/3","value":{}}]"#, document))
        #expect(append.message == "Cannot add at /windows/3: /windows has 1 element, so index 3 is out of range (valid: 0 to 1, or - to append).")
        let unknown = try #require(try Self.failure(#"[{"op":"update","path":"/windows"}]"#, document))
        #expect(unknown.message == #""update" is not an operation of RFC 6902; "op" is one of add, remove, replace, move, copy, test."#)
        let notAnArray = try #require(try Self.failure(#"{"op":"add","path":"/a","value":1}"#, document))
        #expect(notAnArray.description.hasPrefix("A JSON Patch is an array of operation objects"))
    }

    // MARK: all or nothing

    @Test func aFailingOperationUndoesTheOnesBeforeIt() throws {
        let original = try Self.value(#"{"a":[1,2],"b":{"c":true}}"#)
        let patch = try Self.patch(#"""
            [{"op":"add","path":"/a/-","value":3},
             {"op":"remove","path":"/b/c"},
             {"op":"replace","path":"/a/0","value":0},
             {"op":"test","path":"/a/0","value":1}]
            """#)
        #expect(throws: JSONPatchError.self) { try patch.apply(to: original) }
        #expect(original == (try Self.value(#"{"a":[1,2],"b":{"c":true}}"#)))
        do {
            _ = try patch.apply(to: original)
        } catch {
            #expect(error.operation == 3)
            #expect(error.pointer == "/a/0")
        }
        // Without the failing test, all three apply, in order.
        let three = try Self.patch(#"[{"op":"add","path":"/a/-","value":3},{"op":"remove","path":"/b/c"},{"op":"replace","path":"/a/0","value":0}]"#)
        #expect(try three.apply(to: original).equalsByValue(try Self.value(#"{"a":[0,2,3],"b":{}}"#)))
        #expect(original == (try Self.value(#"{"a":[1,2],"b":{"c":true}}"#)))
    }

    @Test func operationsApplyInOrder() throws {
        // The second operation sees the first one's member; reversed, it finds nothing.
        #expect(try Self.apply(#"[{"op":"add","path":"/x","value":{}},{"op":"add","path":"/x/y","value":1}]"#, to: "{}") == #"{"x":{"y":1}}"#)
        let error = try #require(try Self.failure(#"[{"op":"add","path":"/x/y","value":1},{"op":"add","path":"/x","value":{}}]"#, "{}"))
        #expect(error.operation == 0 && error.reason == .missingParent)
    }

    // MARK: pointers

    @Test func pointerTokensUnescapeTildeZeroAndTildeOne() throws {
        #expect(try JSONPatch.Pointer("").tokens == [])
        #expect(try JSONPatch.Pointer("/").tokens == [""])
        #expect(try JSONPatch.Pointer("/a~1b/m~0n").tokens == ["a/b", "m~n"])
        // ~1 is read before ~0: "~01" is "~" then "1", never "/".
        #expect(try JSONPatch.Pointer("/~01").tokens == ["~1"])
        #expect(try JSONPatch.Pointer("/~10").tokens == ["/0"])
        #expect(try JSONPatch.Pointer("//x/").tokens == ["", "x", ""])
        for text in ["", "/", "/a~1b/m~0n", "/~01", "//x/", "/é/😀"] {
            #expect(try JSONPatch.Pointer(text).description == text)
        }
        #expect(throws: JSONPatch.Pointer.SyntaxError.self) { try JSONPatch.Pointer("a") }
        #expect(throws: JSONPatch.Pointer.SyntaxError.self) { try JSONPatch.Pointer("/a~") }
        #expect(throws: JSONPatch.Pointer.SyntaxError.self) { try JSONPatch.Pointer("/~2") }

        let document = #"{"a/b":1,"m~n":2,"~1":3,"/":4}"#
        #expect(try Self.apply(#"[{"op":"replace","path":"/a~1b","value":10}]"#, to: document) == #"{"a/b":10,"m~n":2,"~1":3,"/":4}"#)
        #expect(try Self.apply(#"[{"op":"remove","path":"/m~0n"}]"#, to: document) == #"{"a/b":1,"~1":3,"/":4}"#)
        #expect(try Self.apply(#"[{"op":"move","from":"/~01","path":"/~1"}]"#, to: document) == #"{"a/b":1,"m~n":2,"/":3}"#)
        #expect(try Self.apply(#"[{"op":"add","path":"/x~0~1","value":0}]"#, to: document) == #"{"a/b":1,"m~n":2,"~1":3,"/":4,"x~/":0}"#)
    }

    @Test func dashAppendsAndOnlyAddCanUseIt() throws {
        #expect(try Self.apply(#"[{"op":"add","path":"/-","value":1},{"op":"add","path":"/-","value":[2]}]"#, to: "[]") == "[1,[2]]")
        #expect(try Self.apply(#"[{"op":"copy","from":"/0","path":"/-"}]"#, to: "[{}]") == "[{},{}]")
        #expect(try Self.apply(#"[{"op":"move","from":"/0","path":"/-"}]"#, to: "[1,2]") == "[2,1]")
        for op in [#"{"op":"remove","path":"/-"}"#, #"{"op":"test","path":"/-","value":1}"#, #"{"op":"copy","from":"/-","path":"/0"}"#] {
            let error = try #require(try Self.failure("[\(op)]", "[1]"))
            #expect(error.reason == .indexOutOfRange, "\(op)")
            #expect(error.pointer == "/-")
        }
        // "-" in an object is a member's name.
        #expect(try Self.apply(#"[{"op":"add","path":"/-","value":1}]"#, to: "{}") == #"{"-":1}"#)
    }

    // MARK: RFC 6902 Appendix A

    @Test(arguments: [
        ("A.1", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux"}]"#, #"{"baz":"qux","foo":"bar"}"#),
        ("A.2", #"{"foo":["bar","baz"]}"#, #"[{"op":"add","path":"/foo/1","value":"qux"}]"#, #"{"foo":["bar","qux","baz"]}"#),
        ("A.3", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"remove","path":"/baz"}]"#, #"{"foo":"bar"}"#),
        ("A.4", #"{"foo":["bar","qux","baz"]}"#, #"[{"op":"remove","path":"/foo/1"}]"#, #"{"foo":["bar","baz"]}"#),
        ("A.5", #"{"baz":"qux","foo":"bar"}"#, #"[{"op":"replace","path":"/baz","value":"boo"}]"#, #"{"baz":"boo","foo":"bar"}"#),
        ("A.6", #"{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}"#,
         #"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
         #"{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}"#),
        ("A.7", #"{"foo":["all","grass","cows","eat"]}"#, #"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
         #"{"foo":["all","cows","eat","grass"]}"#),
        ("A.8", #"{"baz":"qux","foo":["a",2,"c"]}"#,
         #"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
         #"{"baz":"qux","foo":["a",2,"c"]}"#),
        ("A.10", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
         #"{"foo":"bar","child":{"grandchild":{}}}"#),
        ("A.11", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#, #"{"foo":"bar","baz":"qux"}"#),
        ("A.14", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":10}]"#, #"{"/":9,"~1":10}"#),
        ("A.16", #"{"foo":["bar"]}"#, #"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#, #"{"foo":["bar",["abc","def"]]}"#),
    ])
    func appendixAExamples(_ example: String, _ document: String, _ patch: String, _ expected: String) throws {
        let result = try Self.patch(patch).apply(to: try Self.value(document))
        #expect(result.equalsByValue(try Self.value(expected)), "\(example)")
    }

    @Test(arguments: [
        ("A.9", #"{"baz":"qux"}"#, #"[{"op":"test","path":"/baz","value":"bar"}]"#, JSONPatchError.Reason.testFailed),
        ("A.12", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz/bat","value":"qux"}]"#, .missingParent),
        ("A.13", #"{"foo":"bar"}"#, #"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#, .invalidMember),
        ("A.15", #"{"/":9,"~1":10}"#, #"[{"op":"test","path":"/~01","value":"10"}]"#, .testFailed),
    ])
    func appendixAErrors(_ example: String, _ document: String, _ patch: String, _ reason: JSONPatchError.Reason) throws {
        let error = try #require(try Self.failure(patch, document), "\(example)")
        #expect(error.reason == reason, "\(example): \(error)")
        #expect(error.operation == 0)
    }

    // MARK: output

    @Test func outputKeepsTheDocumentsOrderByteForByte() throws {
        let document = #"{"format":"taptrace/scene@1","windows":[{"id":"W","class":"UIWindow","frame":[0,0,390,844.5],"alpha":0.1,"label":"a\"b\u0001é","subviews":[]}],"z":null,"a":-0}"#
        let expected = #"{"format":"taptrace/scene@1","windows":[{"id":"W","class":"UIWindow","frame":[0,0,390,844.5],"alpha":0.1,"label":"a\"b\u0001é","subviews":[]}],"z":null,"a":0}"#
        #expect(try Self.apply("[]", to: document) == expected)
        let patch = #"[{"op":"replace","path":"/windows/0/frame","value":[0,0,100,100]},{"op":"add","path":"/windows/0/hidden","value":true}]"#
        let once = try Self.apply(patch, to: document)
        #expect(once == #"{"format":"taptrace/scene@1","windows":[{"id":"W","class":"UIWindow","frame":[0,0,100,100],"alpha":0.1,"label":"a\"b\u0001é","subviews":[],"hidden":true}],"z":null,"a":0}"#)
        #expect(try Self.apply(patch, to: document) == once)
    }

    // MARK: size and depth

    @Test func copiesCannotGrowTheDocumentWithoutBound() throws {
        // Each copy doubles the document: {"a":1} holds 2 values, after copy k 2^(k+2). The
        // default bound is 4 × 2 + 1024 = 1032 values, passed by the tenth copy.
        let copies = (0..<40).map { #"{"op":"copy","from":"","path":"/c\#($0)"}"# }.joined(separator: ",")
        let error = try #require(try Self.failure("[\(copies)]", #"{"a":1}"#))
        #expect(error.reason == .tooLarge)
        #expect(error.operation == 9)
        #expect(error.pointer == "/c9")
        let small = try #require(try Self.failure(#"[{"op":"add","path":"/b","value":[1,2,3]}]"#, #"{"a":1}"#, maximumValues: 5))
        #expect(small.reason == .tooLarge)
        #expect(try Self.apply(#"[{"op":"add","path":"/b","value":[1,2]}]"#, to: #"{"a":1}"#, maximumValues: 5) == #"{"a":1,"b":[1,2]}"#)
        // What is removed makes room.
        #expect(try Self.apply(#"[{"op":"remove","path":"/a"},{"op":"add","path":"/b","value":[1,2,3]}]"#,
                               to: #"{"a":1}"#, maximumValues: 5) == #"{"b":[1,2,3]}"#)
    }

    /// Documents and values nested far deeper than any thread's stack allows for recursion:
    /// read, edited at the bottom, compared, written and released without recursing. (Swift's
    /// own release of a value nested 50,000 deep already overflows an 8 MB stack.)
    @Test func documentsOfAnyDepth() throws {
        let depth = 100_000
        let document = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let bottom = String(repeating: "/0", count: depth - 1)
        let deepValue = String(repeating: "{\"k\":", count: depth) + "1" + String(repeating: "}", count: depth)
        let patch = """
            [{"op":"add","path":"\(bottom)/-","value":\(deepValue)},
             {"op":"test","path":"\(bottom)/0","value":\(deepValue)},
             {"op":"copy","from":"\(bottom)/0","path":"\(bottom)/-"},
             {"op":"remove","path":"\(bottom)/0"},
             {"op":"replace","path":"\(bottom)/0/k","value":2},
             {"op":"move","from":"/0","path":"/-"}]
            """
        let patched = try Self.apply(patch, to: document)
        #expect(patched == String(repeating: "[", count: depth) + #"{"k":2}"# + String(repeating: "]", count: depth))
        // A failure deep down leaves the same way.
        let failed = try #require(try Self.failure(#"[{"op":"add","path":"\#(bottom)/-","value":\#(deepValue)},{"op":"test","path":"","value":[]}]"#, document))
        #expect(failed.reason == .testFailed && failed.operation == 1)

        // Values built here are dismantled too: letting Swift release them would recurse.
        var value = try Self.value(deepValue)
        var same = try Self.value(deepValue)
        #expect(value.valueCount() == depth + 1)
        #expect(value.equalsByValue(same))
        JSONValue.dismantle(&same)
        #expect(JSONValue.dismantle(&value) == depth + 1)
        #expect(value == .null)
    }
}
