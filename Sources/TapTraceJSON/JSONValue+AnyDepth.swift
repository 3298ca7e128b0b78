/// `JSONValue` for documents of any depth.
///
/// The enum's own `==` and `hash(into:)` recurse once per level of nesting (its
/// `init(tape:node:)` and `write(to:)` are these), and so does Swift's release of a nested value (each array releases its elements, each of
/// which releases its array, …). A scene 10,000 views deep nests 20,000 containers, and a
/// request body can nest millions: enough to overflow a thread's stack and take the server
/// down with it. These do the same work with explicit stacks, so that JSON Patch can edit a
/// stored scene, or read a patch, of any depth.
extension JSONValue {
    /// The value at `node` of `tape`, read without recursion. Object members keep the
    /// document's order (and repeated keys, which the documents' readers report).
    public init(anyDepth tape: JSONTape, node: JSONTape.Index = 0) {
        // One frame per container being read: what it holds so far, how many children are
        // still to come, and for an object the key whose value comes next.
        struct Open {
            var isObject: Bool
            var elements: [JSONValue] = []
            var members: [(String, JSONValue)] = []
            var remaining: Int
            var key: String?
        }
        var stack: [Open] = []
        var i = node
        while true {
            // Inside an object, a key comes before each value: the tape stores them as
            // alternating nodes.
            if let top = stack.last, top.isObject, top.key == nil {
                stack[stack.count - 1].key = tape.string(i) ?? ""
                i += 1
                continue
            }
            var value: JSONValue
            switch tape.kind(i) {
            case .null: value = .null
            case .bool: value = .bool(tape.bool(i)!)
            case .number: value = .number(tape.number(i) ?? 0)
            case .string: value = .string(tape.string(i) ?? "")
            case .array, .object:
                let isObject = tape.kind(i) == .object
                let count = tape.count(i)
                guard count > 0 else {
                    value = isObject ? .object([]) : .array([])
                    break
                }
                var open = Open(isObject: isObject, remaining: count)
                if isObject { open.members.reserveCapacity(count) } else { open.elements.reserveCapacity(count) }
                stack.append(open)
                i += 1
                continue
            }
            i += 1
            // Hand the value to the container it belongs to, closing every container it
            // completes; the last value closed is the result.
            while true {
                guard !stack.isEmpty else {
                    self = value
                    return
                }
                let t = stack.count - 1
                if stack[t].isObject {
                    stack[t].members.append((stack[t].key!, value))
                    stack[t].key = nil
                } else {
                    stack[t].elements.append(value)
                }
                stack[t].remaining -= 1
                if stack[t].remaining > 0 { break }
                let done = stack.removeLast()
                value = done.isObject ? .object(done.members) : .array(done.elements)
            }
        }
    }

    /// Writes the value without recursion, in the same form as `write(to:)`: members in the
    /// value's order, numbers as `JSONWriter` formats them, so the same value always gives the
    /// same bytes.
    public func writeAnyDepth(to w: inout JSONWriter) {
        var stack: [Frame] = []
        var pending: JSONValue? = self
        while true {
            if let value = pending {
                pending = nil
                switch value {
                case .null: w.null()
                case .bool(let b): w.bool(b)
                case .number(let n): w.number(n)
                case .string(let s): w.string(s)
                case .array(let a):
                    w.beginArray()
                    stack.append(.elements(a, 0))
                case .object(let o):
                    w.beginObject()
                    stack.append(.members(o, 0))
                }
            }
            guard let top = stack.popLast() else { return }
            switch top {
            case .elements(let a, let k):
                if k < a.count {
                    stack.append(.elements(a, k + 1))
                    pending = a[k]
                } else {
                    w.endArray()
                }
            case .members(let o, let k):
                if k < o.count {
                    stack.append(.members(o, k + 1))
                    w.key(o[k].0)
                    pending = o[k].1
                } else {
                    w.endObject()
                }
            }
        }
    }

    /// A container being walked, and the position of its next child.
    private enum Frame {
        case elements([JSONValue], Int)
        case members([(String, JSONValue)], Int)
    }

    /// Releases `value` (leaving `null`) one level at a time, so that dropping a deeply nested
    /// value does not recurse; returns how many values it held (containers and scalars, not
    /// keys), counting a part shared with other values as often as it appears.
    ///
    /// Parts that something else still holds stay alive: each is only walked, not freed.
    @discardableResult
    public static func dismantle(_ value: inout JSONValue) -> Int {
        var stack: [JSONValue] = [value]
        value = .null
        var count = 0
        // Each popped value's children are on the stack before the value is released, so a
        // release frees one level and never reaches the next.
        while let v = stack.popLast() {
            count += 1
            switch v {
            case .array(let a): stack.append(contentsOf: a)
            case .object(let o): for member in o { stack.append(member.1) }
            default: break
            }
        }
        return count
    }

    /// How many values `self` holds (containers and scalars, not keys), counted without
    /// recursion; stops at `limit`, returning `limit + 1`, so that counting a value too large
    /// to accept costs no more than the limit.
    public func valueCount(upTo limit: Int = .max) -> Int {
        var stack: [JSONValue] = [self]
        var count = 0
        while let v = stack.popLast() {
            count += 1
            if count > limit { return count }
            switch v {
            case .array(let a): stack.append(contentsOf: a)
            case .object(let o): for member in o { stack.append(member.1) }
            default: break
            }
        }
        return count
    }
}
