/// A JSON Patch (RFC 6902): operations applied in order to a JSON document, all or nothing.
///
///     let patch = try JSONPatch(tape: try JSONTape(parsing: #"[{"op": "replace", "path": "/a", "value": 2}]"#))
///     let patched = try patch.apply(to: try JSONTape(parsing: #"{"a": 1, "b": 3}"#))   // {"a":2,"b":3}
///
/// Works on `JSONValue`, which keeps object members in the document's order: a member added by
/// `add` goes last, one replaced stays where it was, so the same document and patch always give
/// the same bytes. Nothing recurses with the document's depth (see `JSONValue(anyDepth:node:)`).
public struct JSONPatch: Sendable {
    /// One operation of RFC 6902 §4, with the members it uses.
    public enum Operation: Sendable {
        case add(path: Pointer, value: JSONValue)
        case remove(path: Pointer)
        case replace(path: Pointer, value: JSONValue)
        case move(from: Pointer, path: Pointer)
        case copy(from: Pointer, path: Pointer)
        case test(path: Pointer, value: JSONValue)

        /// The `op` member: `add`, `remove`, ….
        public var op: String {
            switch self {
            case .add: return "add"
            case .remove: return "remove"
            case .replace: return "replace"
            case .move: return "move"
            case .copy: return "copy"
            case .test: return "test"
            }
        }

        /// The `path` member: the target location.
        public var path: Pointer {
            switch self {
            case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): return path
            case .move(_, let path), .copy(_, let path): return path
            }
        }

        /// The `value` member of `add`, `replace` and `test`.
        public var value: JSONValue? {
            switch self {
            case .add(_, let value), .replace(_, let value), .test(_, let value): return value
            case .remove, .move, .copy: return nil
            }
        }
    }

    /// A JSON Pointer (RFC 6901): the reference tokens, unescaped.
    public struct Pointer: Sendable, Equatable, CustomStringConvertible {
        /// The tokens, `~1` and `~0` already read as `/` and `~`; empty for the whole document.
        public let tokens: [String]

        public init(tokens: [String]) { self.tokens = tokens }

        /// Reads a pointer: `""` (the whole document) or `/` followed by tokens separated by
        /// `/`, in which `~` is always `~0` (a `~`) or `~1` (a `/`).
        public init(_ text: String) throws(SyntaxError) {
            guard !text.isEmpty else { tokens = []; return }
            guard text.utf8.first == UInt8(ascii: "/") else {
                throw SyntaxError(message: "\"\(text)\" is not a JSON pointer: a pointer is empty (the whole document) or starts with \"/\"")
            }
            var tokens: [String] = []
            var token: [UInt8] = []
            var bytes = text.utf8.dropFirst().makeIterator()
            // One pass, left to right: "~01" is "~" then "1" (RFC 6901 §4: ~1 is read before ~0,
            // so the ~0 that made "~" cannot combine with the "1" after it).
            while let b = bytes.next() {
                switch b {
                case UInt8(ascii: "/"):
                    tokens.append(String(decoding: token, as: UTF8.self))
                    token.removeAll(keepingCapacity: true)
                case UInt8(ascii: "~"):
                    switch bytes.next() {
                    case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                    case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                    default:
                        throw SyntaxError(message: "\"\(text)\" is not a JSON pointer: \"~\" must be followed by 0 (for \"~\") or 1 (for \"/\")")
                    }
                default:
                    token.append(b)
                }
            }
            tokens.append(String(decoding: token, as: UTF8.self))
            self.tokens = tokens
        }

        public struct SyntaxError: Error, Sendable, Equatable {
            public var message: String
        }

        /// The pointer as text, each token escaped again (`~` as `~0`, `/` as `~1`). Escaping
        /// has one form, so this is the text the pointer was read from.
        public var description: String { Self.text(tokens[...]) }

        /// The pointer to the first `count` tokens: a location's ancestor.
        func prefix(_ count: Int) -> String { Self.text(tokens[..<count]) }

        static func text(_ tokens: ArraySlice<String>) -> String {
            var out = ""
            for token in tokens {
                out += "/"
                for ch in token.unicodeScalars {
                    switch ch {
                    case "~": out += "~0"
                    case "/": out += "~1"
                    default: out.unicodeScalars.append(ch)
                    }
                }
            }
            return out
        }

        /// Tokens compare by their code points (RFC 6901 §4), not by Swift's canonical
        /// equivalence, which would take a precomposed "é" for a decomposed one.
        public static func == (l: Pointer, r: Pointer) -> Bool {
            l.tokens.count == r.tokens.count && zip(l.tokens, r.tokens).allSatisfy { sameText($0, $1) }
        }

        /// Whether `self` names a location strictly inside `other`'s.
        func isProperDescendant(of other: Pointer) -> Bool {
            tokens.count > other.tokens.count && zip(other.tokens, tokens).allSatisfy { sameText($0, $1) }
        }
    }

    /// The operations, in the order they apply.
    public var operations: [Operation] { storage.operations }
    private let storage: Storage

    public init(_ operations: [Operation]) {
        storage = Storage(operations)
    }

    /// Reads a patch document: an array of operation objects (RFC 6902 §3, §4). Members an
    /// operation does not define are ignored (§4); a member it uses must appear once.
    public init(tape: JSONTape, node: JSONTape.Index = 0) throws(JSONPatchError) {
        guard tape.kind(node) == .array else {
            throw JSONPatchError(reason: .notAnArray, operation: nil, pointer: nil,
                                 message: "A JSON Patch is an array of operation objects, such as [{\"op\": \"replace\", \"path\": \"/name\", \"value\": \"Checkout\"}]; this document is \(tape.kind(node).described).")
        }
        // Every operation is checked before any value is built, so a patch that fails leaves
        // no half-built values behind (their release could recurse; see `Storage`).
        var checked: [CheckedOperation] = []
        for (index, element) in tape.elements(node).enumerated() {
            checked.append(try Self.check(tape, element, index: index))
        }
        var operations: [Operation] = []
        operations.reserveCapacity(checked.count)
        for c in checked {
            let value = { JSONValue(anyDepth: tape, node: c.value!) }
            switch c.op {
            case .add: operations.append(.add(path: c.path, value: value()))
            case .remove: operations.append(.remove(path: c.path))
            case .replace: operations.append(.replace(path: c.path, value: value()))
            case .move: operations.append(.move(from: c.from!, path: c.path))
            case .copy: operations.append(.copy(from: c.from!, path: c.path))
            case .test: operations.append(.test(path: c.path, value: value()))
            }
        }
        storage = Storage(operations)
    }

    /// Applies the operations in order to `document` and returns the result. When one fails
    /// the error names it, and no operation has any effect (§5): `document` is a value, so
    /// the caller's copy is never touched.
    ///
    /// - Parameter maximumValues: the most values (containers and scalars) the document may
    ///   hold after any operation; by default four times what the document and the patch's
    ///   values hold, plus 1,024. `copy` can double a document with each operation, so without
    ///   a bound forty operations would ask for 2⁴⁰ values.
    public func apply(to document: JSONValue, maximumValues: Int? = nil) throws(JSONPatchError) -> JSONValue {
        var working = document
        try applyInPlace(&working, documentValues: document.valueCount(), maximumValues: maximumValues)
        return working
    }

    /// Applies the operations to the document at `node` of `tape` and returns the patched
    /// document, written compactly by `JSONWriter`: members in document order, so the same
    /// document and patch always give the same bytes.
    public func apply(to tape: JSONTape, node: JSONTape.Index = 0, maximumValues: Int? = nil) throws(JSONPatchError) -> [UInt8] {
        var working = JSONValue(anyDepth: tape, node: node)
        try applyInPlace(&working, documentValues: working.valueCount(), maximumValues: maximumValues)
        var w = JSONWriter(reserving: tape.bytes.count + 256)
        working.writeAnyDepth(to: &w)
        JSONValue.dismantle(&working)
        return w.bytes
    }

    private func applyInPlace(_ document: inout JSONValue, documentValues: Int, maximumValues: Int?) throws(JSONPatchError) {
        var engine = Engine(documentValues: documentValues,
                            maximumValues: maximumValues ?? 4 * (documentValues + storage.valueCounts.reduce(0, +)) + 1024)
        for index in storage.operations.indices {
            do throws(JSONPatchError) {
                try engine.perform(storage.operations[index], valueCount: storage.valueCounts[index], on: &document, index: index)
            } catch {
                // The working copy is dropped; released level by level, whatever its depth.
                JSONValue.dismantle(&document)
                throw error
            }
        }
    }

    // MARK: reading operations

    private enum Op: String, CaseIterable {
        case add, remove, replace, move, copy, test
    }

    /// An operation whose members were found and checked; `value` is its node in the tape.
    private struct CheckedOperation {
        var op: Op
        var path: Pointer
        var from: Pointer?
        var value: JSONTape.Index?
    }

    private static let opNames = Op.allCases.map(\.rawValue).joined(separator: ", ")

    private static func check(_ tape: JSONTape, _ element: JSONTape.Index, index: Int) throws(JSONPatchError) -> CheckedOperation {
        guard tape.kind(element) == .object else {
            throw JSONPatchError(reason: .notAnObject, operation: index, pointer: nil,
                                 message: "An operation is an object such as {\"op\": \"remove\", \"path\": \"/a\"}; operation \(index) is \(tape.kind(element).described).")
        }
        var found: [String: [JSONTape.Index]] = [:]
        for (key, value) in tape.members(element) {
            // Members an operation does not define are ignored (§4); these four are read.
            if let name = tape.string(key), ["op", "path", "value", "from"].contains(name) {
                found[name, default: []].append(value)
            }
        }
        // The path as written, for the error of any later check: it names the location even
        // when something else is wrong with the operation.
        let pathText = found["path"]?.first.flatMap { tape.string($0) }
        func fail(_ reason: JSONPatchError.Reason, _ message: String, pointer: String? = pathText) -> JSONPatchError {
            JSONPatchError(reason: reason, operation: index, pointer: pointer, message: message)
        }
        /// The one node of member `name`.
        func member(_ name: String, of op: String?) throws(JSONPatchError) -> JSONTape.Index {
            let nodes = found[name] ?? []
            let what = op.map { "A \"\($0)\" operation" } ?? "An operation"
            guard !nodes.isEmpty else {
                throw fail(.missingMember, "\(what) needs the member \"\(name)\"; operation \(index) has none.")
            }
            guard nodes.count == 1 else {
                throw fail(.invalidMember, "\(what) must have exactly one member \"\(name)\"; operation \(index) has \(nodes.count).")
            }
            return nodes[0]
        }
        func pointer(_ name: String, of op: String) throws(JSONPatchError) -> Pointer {
            let node = try member(name, of: op)
            guard let text = tape.string(node) else {
                throw fail(.invalidMember, "\"\(name)\" is a JSON pointer, a string; in operation \(index) it is \(tape.kind(node).described).",
                           pointer: name == "path" ? nil : pathText)
            }
            do throws(Pointer.SyntaxError) { return try Pointer(text) } catch {
                throw fail(.invalidPointer, "\"\(name)\": \(error.message).", pointer: text)
            }
        }

        let opNode = try member("op", of: nil)
        guard let opText = tape.string(opNode) else {
            throw fail(.invalidMember, "\"op\" is a string, one of \(opNames); in operation \(index) it is \(tape.kind(opNode).described).")
        }
        guard let op = Op(rawValue: opText) else {
            throw fail(.unknownOperation, "\"\(opText)\" is not an operation of RFC 6902; \"op\" is one of \(opNames).")
        }
        var checked = CheckedOperation(op: op, path: try pointer("path", of: opText))
        switch op {
        case .add, .replace, .test: checked.value = try member("value", of: opText)
        case .move, .copy: checked.from = try pointer("from", of: opText)
        case .remove: break
        }
        return checked
    }

    // MARK: storage

    /// The operations, in a class so that their values are released level by level when the
    /// patch goes (see `JSONValue.dismantle`): a patch's `value` can nest as deep as the body
    /// allows.
    private final class Storage: @unchecked Sendable {
        // `var` only so that `deinit` can take the values out; nothing else writes it.
        private(set) var operations: [Operation]
        /// How many values each operation's `value` holds, for `maximumValues`.
        let valueCounts: [Int]

        init(_ operations: [Operation]) {
            self.operations = operations
            valueCounts = operations.map { $0.value?.valueCount() ?? 0 }
        }

        deinit {
            for i in operations.indices {
                guard var value = operations[i].value else { continue }
                // Only this copy of the value may hold it when it is dismantled.
                operations[i] = .remove(path: operations[i].path)
                JSONValue.dismantle(&value)
            }
        }
    }
}

/// Why a JSON Patch could not be applied: which operation (its index in the patch), the JSON
/// pointer at fault (the operation's `path`, or its `from` when that is what fails) and what
/// went wrong.
public struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        /// The patch document is not an array.
        case notAnArray
        /// An element of the patch is not an object.
        case notAnObject
        /// `op` is not one of the six operations.
        case unknownOperation
        /// `op`, `path`, `value` or `from` is missing where the operation needs it.
        case missingMember
        /// A member the operation uses is repeated, or of the wrong type.
        case invalidMember
        /// `path` or `from` is not a JSON pointer (RFC 6901 §3).
        case invalidPointer
        /// A `test` found a different value.
        case testFailed
        /// The location does not exist (remove, replace, test, and `from` of move and copy).
        case notFound
        /// An array index beyond the array, or `-` where a value must exist.
        case indexOutOfRange
        /// A token that is not an array index where the pointer reaches an array.
        case invalidIndex
        /// `add` (or the target of move and copy) under a location that does not exist or is
        /// not an object or array.
        case missingParent
        /// `move` whose `from` is an ancestor of its `path`.
        case moveIntoChild
        /// `remove` of the whole document (path ""): a patch must leave a document.
        case removeWholeDocument
        /// The document would grow beyond `maximumValues`.
        case tooLarge
    }

    public var reason: Reason
    /// The operation's index in the patch (0 for the first); nil when the patch itself is not
    /// an array.
    public var operation: Int?
    /// The pointer at fault, as the operation wrote it; nil when the operation has no usable
    /// one (not an object, no `path`).
    public var pointer: String?
    /// What went wrong, as a sentence.
    public var message: String

    public init(reason: Reason, operation: Int?, pointer: String?, message: String) {
        self.reason = reason
        self.operation = operation
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        guard let operation else { return message }
        return "operation \(operation)" + (pointer.map { " (\($0.isEmpty ? "\"\"" : $0))" } ?? "") + ": " + message
    }
}

// MARK: - applying

/// Applies operations to a working document; keeps count of its values.
private struct Engine {
    var documentValues: Int
    let maximumValues: Int

    init(documentValues: Int, maximumValues: Int) {
        self.documentValues = documentValues
        self.maximumValues = maximumValues
    }

    mutating func perform(_ operation: JSONPatch.Operation, valueCount: Int, on document: inout JSONValue,
                          index: Int) throws(JSONPatchError) {
        func fail(_ reason: JSONPatchError.Reason, _ pointer: JSONPatch.Pointer, _ message: String) -> JSONPatchError {
            JSONPatchError(reason: reason, operation: index, pointer: pointer.description, message: message)
        }
        switch operation {
        case .add(let path, let value):
            try add(value, count: valueCount, at: path, in: &document, fail)

        case .remove(let path):
            guard !path.tokens.isEmpty else {
                throw fail(.removeWholeDocument, path, "The whole document cannot be removed: a patch must leave a document (replace at \"\" swaps it for another).")
            }
            var removed = try remove(at: path, from: &document, fail, role: "")
            documentValues -= JSONValue.dismantle(&removed)

        case .replace(let path, let value):
            try grow(by: valueCount, path, fail)
            do throws(Miss) {
                var old = try Navigation.replace(at: path.tokens[...], in: &document, with: value)
                documentValues -= JSONValue.dismantle(&old)
            } catch {
                throw fail(error.existingReason, path, "\(path.quoted) does not exist: \(error.explanation(path)).")
            }
            documentValues += valueCount

        case .move(let from, let path):
            // §4.4: a location cannot be moved into one of its children.
            if path.isProperDescendant(of: from) {
                throw fail(.moveIntoChild, path, "\(from.quoted) cannot be moved into \(path.quoted), which is inside it.")
            }
            if path == from {
                // Moving a value onto itself changes nothing, but it must exist.
                do throws(Miss) { _ = try Navigation.value(at: from.tokens[...], in: document) } catch {
                    throw fail(error.existingReason, from, "\"from\" \(from.quoted) does not exist: \(error.explanation(from)).")
                }
                return
            }
            var value = try remove(at: from, from: &document, fail, role: "\"from\" ")
            // A move is a remove then an add (§4.4): `path` is read in the document without
            // the value.
            do throws(JSONPatchError) { try add(value, count: 0, at: path, in: &document, fail) } catch {
                // Nothing else holds the value now.
                JSONValue.dismantle(&value)
                throw error
            }

        case .copy(let from, let path):
            let value: JSONValue
            do throws(Miss) { value = try Navigation.value(at: from.tokens[...], in: document) } catch {
                throw fail(error.existingReason, from, "\"from\" \(from.quoted) does not exist: \(error.explanation(from)).")
            }
            let count = value.valueCount(upTo: maximumValues)
            try add(value, count: count, at: path, in: &document, fail)

        case .test(let path, let expected):
            let actual: JSONValue
            do throws(Miss) { actual = try Navigation.value(at: path.tokens[...], in: document) } catch {
                throw fail(error.existingReason, path, "\(path.quoted) does not exist: \(error.explanation(path)).")
            }
            guard actual.equalsByValue(expected) else {
                throw fail(.testFailed, path, "The test failed: the value at \(path.quoted) is \(Self.preview(actual)), not \(Self.preview(expected)).")
            }
        }
    }

    private typealias Fail = (JSONPatchError.Reason, JSONPatch.Pointer, String) -> JSONPatchError

    private mutating func grow(by count: Int, _ path: JSONPatch.Pointer, _ fail: Fail) throws(JSONPatchError) {
        guard count <= maximumValues - documentValues else {
            throw fail(.tooLarge, path, "The patched document would hold more than \(maximumValues) values, the most this patch may produce (four times the document and the patch's values).")
        }
    }

    /// `add` (§4.1), also the second half of move and copy: into an object, a new member (last)
    /// or a new value for an existing one (in place); into an array, before the element at the
    /// index, or at the end for `-`; at "" the whole document.
    private mutating func add(_ value: JSONValue, count: Int, at path: JSONPatch.Pointer, in document: inout JSONValue,
                              _ fail: Fail) throws(JSONPatchError) {
        try grow(by: count, path, fail)
        do throws(Miss) {
            if var old = try Navigation.add(value, at: path.tokens[...], in: &document) {
                documentValues -= JSONValue.dismantle(&old)
            }
        } catch {
            let last = path.tokens.count - 1
            if error.depth < last || error.kind.isNotAContainer {
                let parent = path.prefix(last)
                throw fail(.missingParent, path, "Cannot add at \(path.quoted): \(error.depth < last ? "its parent \(parent) does not exist, as \(error.explanation(path))" : error.explanation(path)).")
            }
            throw fail(error.existingReason, path, "Cannot add at \(path.quoted): \(error.explanation(path, adding: true)).")
        }
        documentValues += count
    }

    /// `remove` (§4.2), also the first half of move: takes the value out and returns it.
    private func remove(at path: JSONPatch.Pointer, from document: inout JSONValue, _ fail: Fail,
                        role: String) throws(JSONPatchError) -> JSONValue {
        do throws(Miss) {
            return try Navigation.remove(at: path.tokens[...], from: &document)
        } catch {
            throw fail(error.existingReason, path, "\(role)\(path.quoted) does not exist: \(error.explanation(path)).")
        }
    }

    /// A value as it reads in a message: compact JSON, long ones cut short.
    static func preview(_ value: JSONValue) -> String {
        switch value {
        case .array(let a) where value.valueCount(upTo: 64) > 64:
            return "an array of \(a.count) element\(a.count == 1 ? "" : "s") (too large to show)"
        case .object(let o) where value.valueCount(upTo: 64) > 64:
            return "an object with \(o.count) member\(o.count == 1 ? "" : "s") (too large to show)"
        default:
            var w = JSONWriter()
            value.writeAnyDepth(to: &w)
            let text = w.text
            return text.count > 200 ? String(text.prefix(200)) + "…" : text
        }
    }
}

extension JSONPatch.Pointer {
    /// The pointer quoted for messages, so that "" reads as the whole document.
    var quoted: String { tokens.isEmpty ? "\"\" (the whole document)" : description }
}

/// Why a pointer does not lead to a value: at which token, and what was found there instead.
private struct Miss: Error {
    /// The index of the token that could not be followed.
    var depth: Int
    var kind: Kind

    enum Kind {
        /// An object without a member of that name.
        case noMember
        /// An array with `count` elements and an index at or beyond it (beyond it, for add).
        case outOfRange(count: Int)
        /// `-`, the position after the last element, where no value is.
        case end(count: Int)
        /// An array, and a token that is not an index.
        case notAnIndex
        /// A number, string, boolean or null, which has no members.
        case scalar(String)

        var isNotAContainer: Bool {
            if case .scalar = self { return true }
            return false
        }
    }

    /// The reason for a location that had to exist.
    var existingReason: JSONPatchError.Reason {
        switch kind {
        case .noMember, .scalar: return .notFound
        case .outOfRange, .end: return .indexOutOfRange
        case .notAnIndex: return .invalidIndex
        }
    }

    /// What the document holds where `pointer` breaks off.
    func explanation(_ pointer: JSONPatch.Pointer, adding: Bool = false) -> String {
        let prefix = pointer.prefix(depth)
        let holder = prefix.isEmpty ? "the document" : prefix
        let token = pointer.tokens[depth]
        switch kind {
        case .noMember:
            return "\(holder) has no member \"\(token)\""
        case .outOfRange(let count):
            let valid = adding ? "0 to \(count), or - to append" : count == 0 ? "none" : "0 to \(count - 1)"
            return "\(holder) has \(count) element\(count == 1 ? "" : "s"), so index \(token) is out of range (valid: \(valid))"
        case .end(let count):
            return "\"-\" names the position after the last element of \(holder) (\(count) element\(count == 1 ? "" : "s")), which holds no value; only add can use it"
        case .notAnIndex:
            return "\(holder) is an array, and \"\(token)\" is not an array index (0, 1, 2, … without leading zeros, or - for the end)"
        case .scalar(let what):
            return "\(holder) is \(what), not an object or array, so it has no member \"\(token)\""
        }
    }
}

/// Following pointers through a `JSONValue` and changing what they lead to, without recursion.
private enum Navigation {
    /// Where a token leads inside a value.
    enum Step {
        case element(Int)
        case member(Int)
        case miss(Miss.Kind)
    }

    static func step(_ token: String, in value: JSONValue) -> Step {
        switch value {
        case .array(let elements):
            if token == "-" { return .miss(.end(count: elements.count)) }
            guard let i = arrayIndex(token) else { return .miss(.notAnIndex) }
            return i < elements.count ? .element(i) : .miss(.outOfRange(count: elements.count))
        case .object(let members):
            // With a repeated key (which the documents' readers report), the first member.
            guard let k = members.firstIndex(where: { sameText($0.0, token) }) else { return .miss(.noMember) }
            return .member(k)
        case .null: return .miss(.scalar("null"))
        case .bool: return .miss(.scalar("a boolean"))
        case .number: return .miss(.scalar("a number"))
        case .string: return .miss(.scalar("a string"))
        }
    }

    /// An array index token (RFC 6901 §4): "0" or digits without a leading zero. An index
    /// too large for `Int` reads as `Int.max`, which no array reaches.
    static func arrayIndex(_ token: String) -> Int? {
        let digits = token.utf8
        guard let first = digits.first, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        if first == 0x30 { return digits.count == 1 ? 0 : nil }
        var value = 0
        for d in digits {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(Int(d - 0x30))
            if o1 || o2 { return Int.max }
            value = sum
        }
        return value
    }

    /// The value `tokens` lead to.
    static func value(at tokens: ArraySlice<String>, in document: JSONValue) throws(Miss) -> JSONValue {
        var current = document
        for (depth, token) in tokens.enumerated() {
            switch step(token, in: current) {
            case .element(let i): if case .array(let a) = current { current = a[i] }
            case .member(let k): if case .object(let o) = current { current = o[k].1 }
            case .miss(let kind): throw Miss(depth: depth, kind: kind)
            }
        }
        return current
    }

    /// A container taken apart on the way down, and where the child taken out of it goes back.
    private enum Frame {
        case elements([JSONValue], Int)
        case members([(String, JSONValue)], Int)
    }

    /// Runs `body` on the value `tokens` lead to, changing it in place, and puts the document
    /// back together; the document is whole again also when the pointer or `body` fails.
    ///
    /// On the way down each container is taken out of its parent (its slot left null), so
    /// that it is the only reference to its storage and changing it copies nothing: an edit
    /// costs the containers along the path, not the document. Containers the document shares
    /// with another value (the caller's original) are copied once, one level each.
    static func modify<R>(_ document: inout JSONValue, at tokens: ArraySlice<String>,
                          _ body: (inout JSONValue, _ depth: Int) throws(Miss) -> R) throws(Miss) -> R {
        var spine: [Frame] = []
        spine.reserveCapacity(tokens.count)
        var current = document
        document = .null
        var outcome: Result<R, Miss>?
        for (depth, token) in tokens.enumerated() {
            switch step(token, in: current) {
            case .element(let i):
                guard case .array(var elements) = current else { preconditionFailure("step found an element") }
                current = .null
                let child = elements[i]
                elements[i] = .null
                spine.append(.elements(elements, i))
                current = child
            case .member(let k):
                guard case .object(var members) = current else { preconditionFailure("step found a member") }
                current = .null
                let child = members[k].1
                members[k].1 = .null
                spine.append(.members(members, k))
                current = child
            case .miss(let kind):
                outcome = .failure(Miss(depth: depth, kind: kind))
            }
            if outcome != nil { break }
        }
        if outcome == nil {
            do throws(Miss) { outcome = .success(try body(&current, tokens.count)) } catch { outcome = .failure(error) }
        }
        // Back up, innermost first, each child into the slot it came from.
        while let frame = spine.popLast() {
            switch frame {
            case .elements(var elements, let i):
                elements[i] = current
                current = .array(elements)
            case .members(var members, let k):
                members[k].1 = current
                current = .object(members)
            }
        }
        document = current
        return try outcome!.get()
    }

    /// Adds `value` at `tokens`; returns the value it replaced (an object's member, or the
    /// whole document), if any.
    static func add(_ value: JSONValue, at tokens: ArraySlice<String>, in document: inout JSONValue) throws(Miss) -> JSONValue? {
        guard let last = tokens.last else {
            let old = document
            document = value
            return old
        }
        return try modify(&document, at: tokens.dropLast()) { (parent, depth) throws(Miss) -> JSONValue? in
            switch parent {
            case .object(var members):
                parent = .null
                defer { parent = .object(members) }
                if let k = members.firstIndex(where: { sameText($0.0, last) }) {
                    let old = members[k].1
                    members[k].1 = value
                    return old
                }
                members.append((last, value))
                return nil
            case .array(var elements):
                let index: Int
                if last == "-" {
                    index = elements.count
                } else {
                    guard let i = arrayIndex(last) else { throw Miss(depth: depth, kind: .notAnIndex) }
                    guard i <= elements.count else { throw Miss(depth: depth, kind: .outOfRange(count: elements.count)) }
                    index = i
                }
                parent = .null
                elements.insert(value, at: index)
                parent = .array(elements)
                return nil
            default:
                guard case .miss(let kind) = step(last, in: parent) else { preconditionFailure("a scalar has no children") }
                throw Miss(depth: depth, kind: kind)
            }
        }
    }

    /// Removes the value at `tokens` (which must not be empty) and returns it.
    static func remove(at tokens: ArraySlice<String>, from document: inout JSONValue) throws(Miss) -> JSONValue {
        let last = tokens.last!
        return try modify(&document, at: tokens.dropLast()) { (parent, depth) throws(Miss) -> JSONValue in
            switch step(last, in: parent) {
            case .element(let i):
                guard case .array(var elements) = parent else { preconditionFailure("step found an element") }
                parent = .null
                let removed = elements.remove(at: i)
                parent = .array(elements)
                return removed
            case .member(let k):
                guard case .object(var members) = parent else { preconditionFailure("step found a member") }
                parent = .null
                let removed = members.remove(at: k).1
                parent = .object(members)
                return removed
            case .miss(let kind):
                throw Miss(depth: depth, kind: kind)
            }
        }
    }

    /// Replaces the value at `tokens`, which must exist; returns the old value.
    static func replace(at tokens: ArraySlice<String>, in document: inout JSONValue, with value: JSONValue) throws(Miss) -> JSONValue {
        try modify(&document, at: tokens) { (target, _) throws(Miss) -> JSONValue in
            let old = target
            target = value
            return old
        }
    }
}

extension JSONValue {
    /// Whether two values are equal as RFC 6902's `test` compares them (§4.6): of the same
    /// type; strings with the same code points; numbers with the same numeric value (1 and
    /// 1.0 alike); arrays element by element; objects with the same members in any order.
    /// Without recursion. (`==` compares objects member by member in order.)
    public func equalsByValue(_ other: JSONValue) -> Bool {
        var pairs: [(JSONValue, JSONValue)] = [(self, other)]
        while let (a, b) = pairs.popLast() {
            switch (a, b) {
            case (.null, .null): continue
            case let (.bool(x), .bool(y)): if x != y { return false }
            case let (.number(x), .number(y)): if x != y { return false }
            case let (.string(x), .string(y)): if !sameText(x, y) { return false }
            case let (.array(x), .array(y)):
                guard x.count == y.count else { return false }
                for k in x.indices { pairs.append((x[k], y[k])) }
            case let (.object(x), .object(y)):
                guard x.count == y.count else { return false }
                guard let matched = Self.matchMembers(x, y) else { return false }
                pairs.append(contentsOf: matched)
            default:
                return false
            }
        }
        return true
    }

    /// Each member of `x` with the member of `y` of the same name (the first, should a name
    /// repeat); nil when a name of `x` is missing from `y`.
    private static func matchMembers(_ x: [(String, JSONValue)], _ y: [(String, JSONValue)]) -> [(JSONValue, JSONValue)]? {
        var matched: [(JSONValue, JSONValue)] = []
        matched.reserveCapacity(x.count)
        if y.count <= 16 {
            for (key, value) in x {
                guard let other = y.first(where: { sameText($0.0, key) }) else { return nil }
                matched.append((value, other.1))
            }
            return matched
        }
        // Names as UTF-8 bytes: `String`'s hashing, like its `==`, uses canonical equivalence.
        var byName: [[UInt8]: Int] = [:]
        for (k, member) in y.enumerated() where byName[Array(member.0.utf8)] == nil { byName[Array(member.0.utf8)] = k }
        for (key, value) in x {
            guard let k = byName[Array(key.utf8)] else { return nil }
            matched.append((value, y[k].1))
        }
        return matched
    }
}

/// Whether two strings have the same code points (RFC 6901 §4, RFC 6902 §4.6), which Swift's
/// `==` does not ask: it takes canonically equivalent strings as equal.
func sameText(_ a: String, _ b: String) -> Bool {
    a.utf8.elementsEqual(b.utf8)
}
