/// A run's trace entries indexed once for the why questions (`RunReasons`): by receiver, with
/// each entry's parent and children and the touches it names.
///
/// Every position here is an index into `DispatchResult.trace`, which is what a why answer
/// cites. An entry's `seq` is its index + 1 and its `parent` is the parent's seq (the recorder
/// numbers entries from 1); nothing outside this type deals with seqs.
struct TraceIndex {
    let entries: [TraceEntry]
    private var byReceiver: [String: [Int]] = [:]

    init(_ entries: [TraceEntry]) {
        self.entries = entries
        for (i, e) in entries.enumerated() {
            if let r = e.receiver { byReceiver[r.id, default: []].append(i) }
        }
    }

    var count: Int { entries.count }
    subscript(i: Int) -> TraceEntry { entries[i] }

    // MARK: nesting

    /// The index of the entry `i` is nested in.
    func parent(_ i: Int) -> Int? { entries[i].parent.map { $0 - 1 } }

    /// The entries nested directly in `i`, in order.
    func children(_ i: Int) -> [Int] {
        var out: [Int] = []
        let depth = entries[i].depth
        var j = i + 1
        while j < entries.count, entries[j].depth > depth {
            if entries[j].depth == depth + 1 { out.append(j) }
            j += 1
        }
        return out
    }

    /// `i`'s parent, its parent, … outermost last.
    func ancestors(_ i: Int) -> [Int] {
        var out: [Int] = []
        var p = parent(i)
        while let q = p { out.append(q); p = parent(q) }
        return out
    }

    // MARK: by receiver

    /// Every entry whose receiver is `id`, in order.
    func entries(of id: String) -> [Int] { byReceiver[id] ?? [] }

    func calls(of id: String, _ selector: String? = nil) -> [Int] {
        entries(of: id).filter { entries[$0].kind == .call && (selector == nil || entries[$0].selector == selector) }
    }

    func states(of id: String) -> [Int] { entries(of: id).filter { entries[$0].kind == .state } }

    func markers(of id: String, _ kind: MarkerKind) -> [Int] {
        entries(of: id).filter { entries[$0].marker == kind }
    }

    /// Markers of a kind whatever their receiver (some have none).
    func markers(_ kind: MarkerKind) -> [Int] { entries.indices.filter { entries[$0].marker == kind } }

    /// `touches…:withEvent:` calls on `id` that carry touch `touch`, in order.
    func touchCalls(of id: String, touch: String) -> [Int] {
        entries(of: id).filter { entries[$0].touchPhase != nil && entries[$0].touchIDs.contains(touch) }
    }

    // MARK: touch forwarding (T5)

    /// The call a touch method was forwarded from, if `i` was reached by forwarding: its
    /// parent is the same touch method on the previous responder.
    func forwardedFrom(_ i: Int) -> Int? {
        guard let p = parent(i), entries[p].kind == .call, entries[p].selector == entries[i].selector,
              entries[i].touchPhase != nil else { return nil }
        return p
    }

    /// The forwarding chain that reached `i`: the first responder's call first, `i` last.
    func forwardingChain(_ i: Int) -> [Int] {
        var chain = [i]
        var c = i
        while let p = forwardedFrom(c) { chain.append(p); c = p }
        return chain.reversed()
    }

    /// Where a touch method that started at `root` ended up: the last call of its forwarding
    /// (`root` itself when nothing was forwarded).
    func forwardingEnd(_ root: Int) -> Int {
        var c = root
        while let next = children(c).first(where: { entries[$0].kind == .call && entries[$0].selector == entries[root].selector }) {
            c = next
        }
        return c
    }

    /// The last entry before `i` that satisfies `match`.
    func last(before i: Int, where match: (TraceEntry) -> Bool) -> Int? {
        var j = min(i, entries.count) - 1
        while j >= 0 { if match(entries[j]) { return j }; j -= 1 }
        return nil
    }
}

extension TraceEntry {
    /// An argument's value by name.
    func arg(_ name: String) -> TraceValue? { args.first { $0.name == name }?.value }

    /// The touch ids a call or marker names (`touches`, or `touch` as a snapshot or an id).
    var touchIDs: [String] {
        switch arg("touches") ?? arg("touch") {
        case .touches(let list)?: return list.map(\.id)
        case .string(let id)?: return [id]
        default: return []
        }
    }

    /// The first snapshot of touch `id` in the entry's touch arguments.
    func snapshot(_ id: String) -> TouchSnapshot? {
        switch arg("touches") ?? arg("touch") {
        case .touches(let list)?: return list.first { $0.id == id }
        default: return nil
        }
    }

    /// The phase of a `touches…:withEvent:` call; nil for any other entry.
    var touchPhase: TouchPhase? {
        guard kind == .call else { return nil }
        switch selector {
        case "touchesBegan:withEvent:": return .began
        case "touchesMoved:withEvent:": return .moved
        case "touchesEnded:withEvent:": return .ended
        case "touchesCancelled:withEvent:": return .cancelled
        default: return nil
        }
    }

    var boolResult: Bool? {
        if case .bool(let b)? = result { return b }
        return nil
    }

    /// Ids named by an argument that is an object or a list of objects.
    func objectIDs(_ name: String) -> [String] {
        switch arg(name) {
        case .object(let ref)?: return [ref.id]
        case .objects(let refs)?: return refs.map(\.id)
        default: return []
        }
    }

    func stringArg(_ name: String) -> String? {
        if case .string(let s)? = arg(name) { return s }
        return nil
    }

    func strings(_ name: String) -> [String] {
        switch arg(name) {
        case .strings(let list)?: return list
        case .string(let s)?: return [s]
        default: return []
        }
    }

    /// A state entry's reason split into its word and its argument: `shouldBeginFalse(buyButton)`
    /// → ("shouldBeginFalse", "buyButton").
    var reasonParts: (word: String, argument: String?) {
        guard let reason else { return ("", nil) }
        guard let open = reason.firstIndex(of: "("), reason.hasSuffix(")") else { return (reason, nil) }
        let inner = reason[reason.index(after: open)..<reason.index(before: reason.endIndex)]
        return (String(reason[..<open]), String(inner))
    }
}
