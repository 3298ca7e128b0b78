/// A parsed JSON document stored flat ("tape"): one node per value, in document order.
///
/// Why not a recursive enum: a scene 10,000 views deep nests 20,000 JSON containers, and both
/// building and releasing a recursive value would recurse that deep on the stack. The tape is
/// built with an explicit stack and released as two arrays, whatever the depth.
///
/// An object's children are its members as alternating key and value nodes; an array's children
/// are its elements. `next` is the index just after a node's subtree, so siblings are reached in
/// O(1) without walking their contents.
public struct JSONTape: Sendable {
    public enum Kind: UInt8, Sendable {
        case null, bool, number, string, array, object

        /// The kind as a message names it: "a number", "an object", "null".
        public var described: String {
            switch self {
            case .null: return "null"
            case .bool: return "a boolean"
            case .number: return "a number"
            case .string: return "a string"
            case .array: return "an array"
            case .object: return "an object"
            }
        }
    }

    @usableFromInline struct Node: Sendable {
        @usableFromInline var kind: Kind
        /// bool: the value; string: contains escapes.
        @usableFromInline var flag: Bool
        /// Byte offset of the token in `bytes` (for strings: the first byte after the quote).
        @usableFromInline var offset: UInt32
        /// strings and numbers: byte length; containers: number of children (members count twice).
        @usableFromInline var length: UInt32
        /// Index of the node after this one's subtree.
        @usableFromInline var next: UInt32

        init(kind: Kind, flag: Bool, offset: UInt32, length: UInt32, next: UInt32) {
            self.kind = kind; self.flag = flag; self.offset = offset; self.length = length; self.next = next
        }
    }

    public let bytes: [UInt8]
    // The accessors below are `@inlinable`: the documents' decoders (TapTraceFormats) call them
    // for every value, and a call each cost more than the access.
    @usableFromInline var nodes: [Node]

    public typealias Index = Int

    /// The root value.
    public var root: Index { 0 }
    /// How many values the document has (every key, scalar and container counts one).
    public var nodeCount: Int { nodes.count }

    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        self.bytes = bytes
        self.nodes = []
        self.nodes = try bytes.withUnsafeBufferPointer { (buf) throws(JSONSyntaxError) -> [Node] in
            var parser = JSONParser(bytes: buf)
            return try parser.parse()
        }
    }

    public init(parsing text: String) throws(JSONSyntaxError) {
        try self.init(parsing: Array(text.utf8))
    }

    @inlinable public func kind(_ i: Index) -> Kind { nodes[i].kind }
    /// The node after `i`'s subtree: its next sibling, if it has one.
    @inlinable public func next(_ i: Index) -> Index { Int(nodes[i].next) }
    public func byteOffset(_ i: Index) -> Int { Int(nodes[i].offset) }

    @inlinable public func bool(_ i: Index) -> Bool? {
        nodes[i].kind == .bool ? nodes[i].flag : nil
    }

    /// A string node's bytes as written between the quotes, and whether they hold escapes
    /// (then they are not the string's UTF-8); nil for other kinds. For matching keys and names
    /// without making a `String`.
    @inlinable
    public func withRawString<R>(_ i: Index, _ body: (_ bytes: UnsafeBufferPointer<UInt8>, _ escaped: Bool) -> R) -> R? {
        let node = nodes[i]
        guard node.kind == .string else { return nil }
        return bytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[Int(node.offset)..<Int(node.offset) + Int(node.length)]), node.flag)
        }
    }

    /// Number of elements of an array, or members of an object.
    @inlinable public func count(_ i: Index) -> Int {
        switch nodes[i].kind {
        case .array: return Int(nodes[i].length)
        case .object: return Int(nodes[i].length) / 2
        default: return 0
        }
    }

    /// The numeric value; exact for integers and short decimals (Clinger's fast path), otherwise
    /// through the standard library's correctly rounded conversion.
    @inlinable public func number(_ i: Index) -> Double? {
        let node = nodes[i]
        guard node.kind == .number else { return nil }
        return bytes.withUnsafeBufferPointer { buf in
            // Small non-negative integers (most numbers of a scene: frames of whole points)
            // read in place; anything else through the full conversion.
            let start = Int(node.offset), count = Int(node.length)
            if count <= 9 {
                var value = 0
                for k in start..<(start + count) {
                    let digit = Int(buf[k]) &- 0x30
                    guard digit >= 0, digit <= 9 else { return JSONNumber.parse(buf, from: start, count: count) }
                    value = value &* 10 &+ digit
                }
                return Double(value)
            }
            return JSONNumber.parse(buf, from: start, count: count)
        }
    }

    public func string(_ i: Index) -> String? {
        let node = nodes[i]
        guard node.kind == .string else { return nil }
        let start = Int(node.offset), end = start + Int(node.length)
        if !node.flag {
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
        }
        return JSONStringDecoder.unescape(bytes[start..<end])
    }

    /// Whether two string nodes have the same raw bytes (escapes compared as written).
    @inlinable public func sameRawString(_ a: Index, _ b: Index) -> Bool {
        let na = nodes[a], nb = nodes[b]
        guard na.kind == .string, nb.kind == .string, na.length == nb.length, na.flag == nb.flag else { return false }
        return bytes.withUnsafeBufferPointer { buf in
            let pa = buf.baseAddress! + Int(na.offset), pb = buf.baseAddress! + Int(nb.offset)
            for k in 0..<Int(na.length) where pa[k] != pb[k] { return false }
            return true
        }
    }

    /// Compares a string node with ASCII text without allocating.
    public func stringEquals(_ i: Index, _ text: StaticString) -> Bool {
        let node = nodes[i]
        guard node.kind == .string, !node.flag, Int(node.length) == text.utf8CodeUnitCount else { return false }
        let start = Int(node.offset)
        return text.withUTF8Buffer { t in
            for k in 0..<t.count where bytes[start + k] != t[k] { return false }
            return true
        }
    }

    /// Elements of an array (empty for other kinds).
    public func elements(_ i: Index) -> ChildSequence {
        guard nodes[i].kind == .array else { return ChildSequence(tape: self, first: 0, count: 0, stride: 1) }
        return ChildSequence(tape: self, first: i + 1, count: Int(nodes[i].length), stride: 1)
    }

    /// Members of an object as (key node, value node) pairs (empty for other kinds).
    /// The value of `key` in object `i` (the first, should the key repeat), or nil.
    public func member(_ i: Index, _ key: String) -> Index? {
        members(i).first { string($0.key) == key }?.value
    }

    public func members(_ i: Index) -> MemberSequence {
        guard nodes[i].kind == .object else { return MemberSequence(tape: self, first: 0, count: 0) }
        return MemberSequence(tape: self, first: i + 1, count: Int(nodes[i].length) / 2)
    }

    /// The bytes of a value exactly as the document wrote it (for storing a sub-document as given).
    public func rawBytes(_ i: Index) -> ArraySlice<UInt8> {
        bytes[Int(nodes[i].offset - (nodes[i].kind == .string ? 1 : 0))..<byteEnd(i)]
    }

    /// Offset just after a value's last byte.
    private func byteEnd(_ i: Index) -> Int {
        var node = i
        // The end of a container is the closer after its last child (or after its opener).
        var closers = 0
        while nodes[node].kind == .array || nodes[node].kind == .object {
            closers += 1
            guard nodes[node].length > 0 else { break }
            var child = node + 1
            while Int(nodes[child].next) < Int(nodes[node].next) { child = Int(nodes[child].next) }
            node = child
        }
        var end: Int
        switch nodes[node].kind {
        case .array, .object: end = Int(nodes[node].offset) + 1
        case .string: end = Int(nodes[node].offset + nodes[node].length) + 1
        default: end = Int(nodes[node].offset + nodes[node].length)
        }
        while closers > 0 {
            while bytes[end] != 0x5D && bytes[end] != 0x7D { end += 1 }
            end += 1
            closers -= 1
        }
        return end
    }

    /// 1-based line and column of a byte offset, for messages about malformed input.
    public func lineColumn(ofByte offset: Int) -> (line: Int, column: Int) {
        JSONSyntaxError.lineColumn(in: bytes, offset: offset)
    }

    public struct ChildSequence: Sequence {
        let tape: JSONTape
        let first: Int
        public let count: Int
        let stride: Int
        public struct Iterator: IteratorProtocol {
            let tape: JSONTape
            var index: Int, remaining: Int
            public mutating func next() -> Int? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                let current = index
                index = Int(tape.nodes[current].next)
                return current
            }
        }
        public func makeIterator() -> Iterator { Iterator(tape: tape, index: first, remaining: count) }
        public var underestimatedCount: Int { count }
    }

    public struct MemberSequence: Sequence {
        let tape: JSONTape
        let first: Int
        public let count: Int
        public struct Iterator: IteratorProtocol {
            let tape: JSONTape
            var index: Int, remaining: Int
            public mutating func next() -> (key: Int, value: Int)? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                let key = index
                let value = Int(tape.nodes[key].next)
                index = Int(tape.nodes[value].next)
                return (key, value)
            }
        }
        public func makeIterator() -> Iterator { Iterator(tape: tape, index: first, remaining: count) }
        public var underestimatedCount: Int { count }
    }
}

/// Malformed JSON: where (byte offset, line, column) and what.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }

    static func lineColumn(in bytes: [UInt8], offset: Int) -> (line: Int, column: Int) {
        var line = 1, column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            let b = bytes[i]
            if b == 0x0A { line += 1; column = 1 }
            // Count characters, not bytes: skip UTF-8 continuation bytes.
            else if b & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return (line, column)
    }
}
