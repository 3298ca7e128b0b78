/// Hands out view ids that are unique across the scene (contract §1), including the ids the
/// engine derives: the default application id and a scroll view's `<id>.delay` / `<id>.pan`.
/// A taken id gets `-2`, `-3`, … appended.
struct IdAllocator {
    private var used: Set<String> = ["UIApplication"]
    private var nextSuffix: [String: Int] = [:]
    private var counters: [String: Int] = [:]

    /// The next number for `key`, from 1 (for ids like `UILabel-3`).
    mutating func number(for key: String) -> Int {
        let n = (counters[key] ?? 0) + 1
        counters[key] = n
        return n
    }

    mutating func allocate(_ candidate: String, scrollView: Bool) -> String {
        let base = candidate.isEmpty ? "view" : candidate
        // The common case, a free id of a view that derives none: one hash of the id.
        if !scrollView, used.insert(base).inserted { return base }
        var id = base
        while !isFree(id, scrollView: scrollView) {
            let n = nextSuffix[base] ?? 2
            nextSuffix[base] = n + 1
            id = "\(base)-\(n)"
        }
        used.insert(id)
        if scrollView { used.insert(id + ".delay"); used.insert(id + ".pan") }
        return id
    }

    private func isFree(_ id: String, scrollView: Bool) -> Bool {
        !used.contains(id) && (!scrollView || (!used.contains(id + ".delay") && !used.contains(id + ".pan")))
    }
}
