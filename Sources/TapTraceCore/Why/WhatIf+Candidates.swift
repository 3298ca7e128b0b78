/// A single change to try: its edits, its words, the rule that would make it work, and what
/// ranks it.
struct WhatIfCandidate {
    /// How small the change is (issue 31: a flag toggle < a delegate answer < a relation < a
    /// geometry change). `combined` is the fallback of a hit question that no single change
    /// answers.
    enum Size: Int, Comparable {
        case flag, answer, relation, geometry, combined
        static func < (a: Size, b: Size) -> Bool { a.rawValue < b.rawValue }
    }

    var edits: [WhatIfEdit]
    var edit: String
    var rule: String
    var size: Size
    /// Document order of the object edited: (view index, 0) for a view, (view index, 1 + k)
    /// for its k-th recognizer.
    var order: (Int, Int)
    var property: String
    /// Views whose whole subtree the verification scene keeps (their geometry changes).
    var openViews: [Int] = []

    /// Ranking: size, then the object in document order, then the property, then the words.
    static func ranks(_ a: WhatIfCandidate, before b: WhatIfCandidate) -> Bool {
        if a.size != b.size { return a.size < b.size }
        if a.order != b.order { return a.order < b.order }
        if a.property != b.property { return a.property < b.property }
        return a.edit < b.edit
    }
}

/// The candidates for one question, most likely to matter first: what the run recorded as the
/// cause (a failure reason, a cancelling recognizer, the view that took the point) gives the
/// first ones; the objects on the touch's path the rest. Each is a single change; verifying
/// decides which work.
struct WhatIfCandidates {
    let index: SceneIndex
    let question: WhyQuestion
    let expect: WhyQuestion.Expectation
    let baseline: DispatchResult
    /// The first touch's point (screen) and hit-test view.
    let point: Point?
    let hitView: Int?
    /// Why each recognizer failed, as the baseline's trace recorded it (`shouldBeginFalse(x)`,
    /// `prevented(y)`, `requiredRecognized(y)`, …); empty for an untraced baseline.
    let failReasons: [String: String]

    private(set) var list: [WhatIfCandidate] = []
    private var seen: Set<String> = []
    /// Recognizers whose "make it fire" candidates were added (senders can share one).
    private var firing: Set<String> = []

    init(question: WhyQuestion, expect: WhyQuestion.Expectation, index: SceneIndex, records: [TouchRecord],
         baseline: DispatchResult) {
        self.index = index
        self.question = question
        self.expect = expect
        self.baseline = baseline
        var first: Point?
        outer: for r in records {
            for c in r.touches where c.phase == .began {
                first = c.at
                break outer
            }
        }
        point = first
        hitView = baseline.touches.first?.hitTestView.flatMap { index.view(withId: $0) }
        failReasons = WhatIfCandidates.failReasons(baseline)
    }

    /// The last failure reason of each recognizer in the trace.
    static func failReasons(_ result: DispatchResult) -> [String: String] {
        let recorder = result.recorder
        guard recorder.enabled else { return [:] }
        var out: [String: String] = [:]
        for r in recorder.records where r.kind == .state && r.to == .failed {
            if let id = recorder.ref(r.receiver)?.id, let reason = recorder.reason(r) { out[id] = reason }
        }
        return out
    }

    mutating func generate() {
        switch (question.subject, expect) {
        case (.recognizer(let id), .fired): fireRecognizer(id)
        case (.recognizer(let id), .notFired): stopRecognizer(id)
        case (.action(let action), .fired): fireAction(action)
        case (.action(let action), .notFired): stopAction(action)
        case (.view(let id), .hit): if let v = index.view(withId: id) { makeHit(v) }
        case (.view(let id), .fired): if let v = index.view(withId: id) { makeReceive(v) }
        case (.view(let id), .notFired): if let v = index.view(withId: id) { keepFrom(v) }
        default: break
        }
    }

    // MARK: adding

    private mutating func add(_ edits: [WhatIfEdit], _ text: String, rule: String, size: WhatIfCandidate.Size,
                              order: (Int, Int), property: String, openViews: [Int] = []) {
        guard seen.insert(text).inserted else { return }
        list.append(WhatIfCandidate(edits: edits, edit: text, rule: rule, size: size, order: order,
                                    property: property, openViews: openViews))
    }

    private func id(_ v: Int) -> String { index.view(v).id }
    private func yes(_ b: Bool) -> String { b ? "YES" : "NO" }

    private mutating func viewFlag(_ v: Int, _ change: WhatIfEdit.ViewChange, _ property: String, _ value: String, rule: String) {
        add([.view(id(v), change)], "set \(id(v)).\(property) = \(value)", rule: rule, size: .flag, order: (v, 0), property: property)
    }

    private func order(ofRecognizer g: Int) -> (Int, Int) {
        let info = index.recognizers[g]
        if case .recognizer(_, let k)? = index.directory[info.id] { return (info.view, 1 + k) }
        return (info.view, 0)
    }

    /// A recognizer's flag; a scroll view's built-in recognizers are set through the scroll
    /// view (SV1: the delay recognizer is `delaysContentTouches`, the pan `scrollEnabled`).
    private mutating func recognizerFlag(_ g: Int, _ change: WhatIfEdit.RecognizerChange, _ property: String, _ value: Bool,
                                         rule: String) {
        let info = index.recognizers[g]
        if info.spec != nil {
            add([.recognizer(info.id, change)], "set \(info.id).\(property) = \(yes(value))", rule: rule, size: .flag,
                order: order(ofRecognizer: g), property: property)
            return
        }
        guard case .enabled(let on) = change else { return }
        let v = info.view
        if info.base == .scrollViewDelay {
            viewFlag(v, .delaysContentTouches(on), "scrollView.delaysContentTouches", yes(on), rule: "SV3")
        } else if info.base == .scrollViewPan {
            viewFlag(v, .scrollEnabled(on), "scrollView.scrollEnabled", yes(on), rule: "G4")
        }
    }

    /// The recognizer's delegate, or the object that would become it: the nearest view
    /// controller up from its view, else the view.
    private func delegateId(_ g: Int) -> String {
        let info = index.recognizers[g]
        if let d = info.delegate { return d.id }
        var current: Int? = info.view
        while let c = current {
            if let vc = index.view(c).viewController { return vc.id }
            current = index.superview(c)
        }
        return id(info.view)
    }

    /// A delegate answer: `words` as in "shouldBegin = NO".
    private mutating func delegateAnswer(_ g: Int, _ change: WhatIfEdit.RecognizerChange, _ property: String, _ words: String,
                                         rule: String) {
        let info = index.recognizers[g]
        guard info.spec != nil, !info.isScrollViewPan else { return }
        let d = delegateId(g)
        let who = info.delegate == nil ? " (\(d) becomes its delegate)" : ""
        add([.recognizer(info.id, change)], "set \(info.id).delegate.\(words)\(who)", rule: rule, size: .answer,
            order: order(ofRecognizer: g), property: "delegate.\(property)")
    }

    /// UIView `gestureRecognizerShouldBegin:` of `v` answering `answer` for recognizer `g`.
    /// Without an override the view's class answers for the others as before (X2).
    private mutating func viewShouldBegin(_ v: Int, _ g: Int, _ answer: Bool, rule: String) {
        let r = index.recognizers[g].id
        var others: [String: Bool] = [:]
        if index.view(v).overrides?.gestureRecognizerShouldBegin == nil {
            for a in index.ancestry(v) {
                for h in index.recognizers(ofView: a) where h != g && classVetoes(v, h) { others[index.recognizers[h].id] = false }
            }
        }
        add([.view(id(v), .shouldBegin(recognizer: r, answer: answer, defaultAnswer: true, others: others))],
            "set \(id(v)).overrides.gestureRecognizerShouldBegin for \(r) = \(yes(answer))", rule: rule, size: .answer,
            order: (v, 0), property: "overrides.gestureRecognizerShouldBegin")
    }

    /// X2's predicate: the control's class answers NO for a single-tap recognizer above it.
    private func classVetoes(_ v: Int, _ g: Int) -> Bool {
        let info = index.recognizers[g]
        return index.view(v).base.vetoesAncestorSingleTap && index.isEnabled(v) && info.base == .tap
            && (info.spec?.numberOfTapsRequired ?? 1) == 1 && (info.spec?.numberOfTouchesRequired ?? 1) == 1
            && info.view != v
    }

    private func overrideVetoes(_ v: Int, _ g: Int) -> Bool {
        index.view(v).overrides?.gestureRecognizerShouldBegin?.answer(for: index.recognizers[g].id) == false
    }

    private mutating func relation(_ g: Int, adding: Bool, _ other: String, rule: String) {
        let info = index.recognizers[g]
        guard info.spec != nil else { return }
        let text = adding ? "add \(other) to \(info.id).requireToFail" : "remove \(other) from \(info.id).requireToFail"
        add([.recognizer(info.id, adding ? .requireToFailAdd(other) : .requireToFailRemove(other))], text, rule: rule,
            size: .relation, order: order(ofRecognizer: g), property: "requireToFail")
    }

    // MARK: hit-testing

    private func pruneFixes(_ v: Int) -> [(WhatIfEdit.ViewChange, String, String, String)] {
        var out: [(WhatIfEdit.ViewChange, String, String, String)] = []
        if index.isHidden(v) { out.append((.hidden(false), "hidden", "NO", "H2")) }
        if !index.isUserInteractionEnabled(v) {
            out.append((.userInteractionEnabled(true), "userInteractionEnabled", "YES",
                        index.view(v).userInteractionEnabled == nil ? "H9" : "H2"))
        }
        if index.isTransparent(v, threshold: baseline.knobs.alphaThreshold) { out.append((.alpha(1), "alpha", "1", "H3")) }
        if index.isAnimating(v) { out.append((.animating(false), "animating", "NO", "Z1")) }
        return out
    }

    /// Makes `v` ignore touches. Only `userInteractionEnabled = NO` is tried: `hidden = YES`
    /// and `alpha = 0` prune exactly as it does (H1 step 1) and would only repeat its outcome.
    private mutating func prune(_ v: Int) {
        guard index.isUserInteractionEnabled(v), !index.isHidden(v) else { return }
        viewFlag(v, .userInteractionEnabled(false), "userInteractionEnabled", "NO", rule: "H2")
    }

    /// Single changes that would make `v` the hit-test view of the first touch.
    mutating func makeHit(_ v: Int) {
        let path = index.ancestry(v)
        // The view or an ancestor pruned (H2, H3, H9, Z1).
        for a in path { for (change, property, value, rule) in pruneFixes(a) { viewFlag(a, change, property, value, rule: rule) } }
        // Overrides on the way down (H8, H7).
        for a in path {
            guard let o = index.view(a).overrides else { continue }
            if let h = o.hitTest {
                add([.view(id(a), .removeHitTestOverride)], "remove \(id(a)).overrides.hitTest (\(Self.describe(h)))", rule: "H8",
                    size: .answer, order: (a, 0), property: "overrides.hitTest")
            }
            if o.pointInside != nil {
                add([.view(id(a), .removePointInsideOverride)], "remove \(id(a)).overrides.pointInside", rule: "H7",
                    size: .answer, order: (a, 0), property: "overrides.pointInside")
            }
        }
        // The views that take the point instead: deeper ones (H11) or those in front (H1),
        // outermost first (pruning it takes its whole subtree out of the way).
        if let h = hitView, h != v {
            var blockers: [Int] = []
            for w in index.ancestry(h) {
                if path.contains(w) { break }
                blockers.append(w)
            }
            for w in blockers.reversed() { prune(w) }
        }
        geometry(v)
        bringToFront(v)
    }

    /// The subtree of `v` brought in front of the one that takes the point, below their common
    /// ancestor (H1: subviews are asked front to back).
    private func frontChange(_ v: Int) -> (view: Int, superview: Int)? {
        guard let h = hitView, h != v, !index.isDescendant(h, of: v) else { return nil }
        let path = index.ancestry(v), hPath = index.ancestry(h)
        guard let common = path.first(where: { hPath.contains($0) }),
              let mine = path.first(where: { index.superview($0) == common }),
              let theirs = hPath.first(where: { index.superview($0) == common }),
              let km = index.subviews(common).firstIndex(of: mine), let kt = index.subviews(common).firstIndex(of: theirs),
              km < kt else { return nil }
        return (mine, common)
    }

    private mutating func bringToFront(_ v: Int) {
        guard let (mine, common) = frontChange(v) else { return }
        add([.view(id(mine), .bringToFront)], "bring \(id(mine)) to the front of \(id(common))", rule: "H1", size: .geometry,
            order: (mine, 0), property: "subviews")
    }

    private static func describe(_ h: HitTestOverride) -> String {
        switch h {
        case .passThrough: return "passThrough"
        case .returnsSelf: return "self"
        case .redirect(let target): return "redirect to \(target)"
        }
    }

    /// The point in `v`'s superview's coordinates, when every ancestor takes it (H4, H6);
    /// moving `v` cannot help otherwise.
    private func pointInSuperview(of v: Int) -> Point? {
        guard let p = point, let s = index.superview(v) else { return nil }
        var a: Int? = s
        while let x = a {
            let q = index.convertFromScreen(p, to: x)
            if index.pointInsideOverrides[x] == nil, !index.geometry[x].bounds.contains(q) { return nil }
            a = index.superview(x)
        }
        return index.convertFromScreen(p, to: s)
    }

    /// `v` moved, then resized, to contain the first touch's point (H4).
    private mutating func geometry(_ v: Int) {
        guard let p = point, let q = pointInSuperview(of: v) else { return }
        let g = index.geometry[v]
        guard !g.bounds.contains(g.convertFromSuperview(q)) else { return }
        let spec = index.view(v)
        let at = "(\(NumberText.format(p.x)), \(NumberText.format(p.y)))"
        let f = g.frame
        if spec.center != nil || !g.transform.isIdentity {
            // Centred on the point: the transformed view contains its own center.
            let d = Point(q.x - (f.minX + f.size.width / 2), q.y - (f.minY + f.size.height / 2))
            if let c = spec.center {
                let moved = Point(c.x + d.x, c.y + d.y)
                add([.view(spec.id, .center(moved))], "move \(spec.id) to contain \(at): center = [\(Self.text(moved.x)), \(Self.text(moved.y))]",
                    rule: "H4", size: .geometry, order: (v, 0), property: "center", openViews: [v])
            } else if let frame = spec.frame {
                let moved = Rect(frame.minX + d.x, frame.minY + d.y, frame.size.width, frame.size.height)
                add([.view(spec.id, .frame(moved))], "move \(spec.id) to contain \(at): frame = \(Self.text(moved))",
                    rule: "H4", size: .geometry, order: (v, 0), property: "frame", openViews: [v])
            }
            return
        }
        guard let frame = spec.frame else { return }
        func axis(_ lo: Double, _ size: Double, _ x: Double) -> Double {
            if x >= lo && x < lo + size { return lo }
            let centred = (x - size / 2).rounded()
            return x >= centred && x < centred + size ? centred : x - size / 2
        }
        let moved = Rect(axis(frame.minX, frame.size.width, q.x), axis(frame.minY, frame.size.height, q.y), frame.size.width, frame.size.height)
        add([.view(spec.id, .frame(moved))], "move \(spec.id) to contain \(at): frame = \(Self.text(moved))",
            rule: "H4", size: .geometry, order: (v, 0), property: "frame", openViews: [v])
        let minX = min(frame.minX, q.x.rounded(.down)), minY = min(frame.minY, q.y.rounded(.down))
        let maxX = max(frame.maxX, q.x.rounded(.down) + 1), maxY = max(frame.maxY, q.y.rounded(.down) + 1)
        let grown = Rect(minX, minY, maxX - minX, maxY - minY)
        add([.view(spec.id, .frame(grown))], "resize \(spec.id) to contain \(at): frame = \(Self.text(grown))",
            rule: "H4", size: .geometry, order: (v, 0), property: "frame", openViews: [v])
    }

    static func text(_ x: Double) -> String { NumberText.format(x) }
    static func text(_ r: Rect) -> String { "[\(text(r.minX)), \(text(r.minY)), \(text(r.size.width)), \(text(r.size.height))]" }

    /// For a hit question no single change answers: the view unpruned, moved to the point and
    /// brought in front of what takes the point, as one change.
    func combinedHit(_ v: Int) -> WhatIfCandidate? {
        guard let h = hitView, h != v, point != nil, !index.isDescendant(h, of: v) else { return nil }
        let path = index.ancestry(v)
        var edits: [WhatIfEdit] = []
        var words: [String] = []
        var rules: [String] = []
        for a in path {
            for (change, property, value, rule) in pruneFixes(a) {
                edits.append(.view(id(a), change)); words.append("set \(id(a)).\(property) = \(value)")
                if !rules.contains(rule) { rules.append(rule) }
            }
        }
        var open: [Int] = []
        let g = index.geometry[v]
        if let q = pointInSuperview(of: v), !g.bounds.contains(g.convertFromSuperview(q)) {
            var probe = WhatIfCandidates(copyOf: self)
            probe.geometry(v)
            guard let move = probe.list.first(where: { $0.size == .geometry }) else { return nil }
            edits += move.edits; words.append(move.edit); rules.append("H4"); open = [v]
        } else if pointInSuperview(of: v) == nil, index.superview(v) != nil {
            return nil                                                          // H6: an ancestor refuses the point
        }
        if let (mine, common) = frontChange(v) {
            edits.append(.view(id(mine), .bringToFront)); words.append("bring \(id(mine)) to the front of \(id(common))")
            rules.append("H1")
        }
        guard edits.count > 1 else { return nil }
        return WhatIfCandidate(edits: edits, edit: words.joined(separator: "; "), rule: rules.joined(separator: ", "),
                               size: .combined, order: (v, 0), property: "combined", openViews: open)
    }

    private init(copyOf other: WhatIfCandidates) {
        index = other.index; question = other.question; expect = other.expect; baseline = other.baseline
        point = other.point; hitView = other.hitView; failReasons = other.failReasons
    }

    // MARK: refusals (E1, E3)

    private mutating func refusalFixes() {
        for t in baseline.touches {
            guard let refused = t.refused, let hv = t.hitTestView.flatMap({ index.view(withId: $0) }) else { continue }
            switch refused {
            case .exclusiveTouch:
                for other in baseline.touches {
                    if let ov = other.hitTestView.flatMap({ index.view(withId: $0) }), index.isExclusiveTouch(ov) {
                        viewFlag(ov, .exclusiveTouch(false), "exclusiveTouch", "NO", rule: "E3")
                    }
                }
            case .multipleTouchDisabled:
                viewFlag(hv, .multipleTouchEnabled(true), "multipleTouchEnabled", "YES", rule: "E1")
            case .touchesShouldBegin, .ignoringInteractionEvents:
                break
            }
        }
    }

    // MARK: recognizers

    private func touches(of id: String) -> [DispatchResult.TouchSummary] {
        baseline.touches.filter { $0.recognizers.contains(id) }
    }

    /// Hit-test views of the recognizer's touches, the views GS7 asks.
    private func askedViews(_ id: String) -> [Int] {
        var out: [Int] = []
        for t in touches(of: id) {
            if let v = t.hitTestView.flatMap({ index.view(withId: $0) }), !out.contains(v) { out.append(v) }
        }
        return out
    }

    private func reasonArgument(_ reason: String, _ name: String) -> String? {
        guard reason.hasPrefix(name + "("), reason.hasSuffix(")") else { return nil }
        return String(reason.dropFirst(name.count + 1).dropLast())
    }

    mutating func fireRecognizer(_ rid: String) {
        guard let g = index.recognizer(withId: rid), firing.insert(rid).inserted else { return }
        let info = index.recognizers[g]
        if !info.enabled { recognizerFlag(g, .enabled(true), "enabled", true, rule: "G4") }
        if touches(of: rid).isEmpty {
            if info.delegate?.shouldReceiveTouch == false {
                delegateAnswer(g, .shouldReceiveTouch(true, delegate: delegateId(g)), "shouldReceiveTouch", "shouldReceiveTouch = YES", rule: "G6")
            }
            refusalFixes()
            if hitView.map({ !index.isDescendant($0, of: info.view) }) ?? true { makeHit(info.view) }
            return
        }
        let reason = failReasons[rid]
        if let x = reason.flatMap({ reasonArgument($0, "shouldBeginFalse") }) {
            if x == info.delegate?.id, !info.isScrollViewPan {
                delegateAnswer(g, .shouldBegin(true, delegate: x), "shouldBegin", "shouldBegin = YES", rule: "GS7")
            } else if let xv = index.view(withId: x) {
                if info.isScrollViewPan, xv == info.view {
                    viewFlag(xv, .canCancelContentTouches(true), "scrollView.canCancelContentTouches", "YES", rule: "SV6")
                } else {
                    vetoFixes(xv, g)
                }
            }
        } else if let y = reason.flatMap({ reasonArgument($0, "prevented") }) {
            preventionFixes(g, y)
        } else if let y = reason.flatMap({ reasonArgument($0, "requiredRecognized") }) {
            requirementFixes(g, y)
        } else if reason == nil {
            // No failure recorded (an untraced run, or still waiting at the end): each cause
            // the run could have had.
            if info.delegate?.shouldBegin == false {
                delegateAnswer(g, .shouldBegin(true, delegate: delegateId(g)), "shouldBegin", "shouldBegin = YES", rule: "GS7")
            }
            for xv in askedViews(rid) where classVetoes(xv, g) || overrideVetoes(xv, g) { vetoFixes(xv, g) }
            for y in info.requireToFail { requirementFixes(g, index.recognizers[y].id) }
            for s in baseline.recognizers where s.id != rid && WhatIfOutcome.recognized(s.id, in: baseline) {
                if let y = index.recognizer(withId: s.id), !touches(of: s.id).isEmpty { preventionFixes(g, index.recognizers[y].id) }
            }
        }
        // A recognizer that waits on a requirement to the end (GS10).
        for y in info.requireToFail { relation(g, adding: false, index.recognizers[y].id, rule: "GM6") }
    }

    /// The view `xv` answered NO to `gestureRecognizerShouldBegin:` for `g` (GS7, X1).
    private mutating func vetoFixes(_ xv: Int, _ g: Int) {
        let info = index.recognizers[g]
        let byClass = classVetoes(xv, g) && index.view(xv).overrides?.gestureRecognizerShouldBegin == nil
        if info.cancelsTouchesInView, info.spec != nil, baseline.knobs.askViewsOnlyWhenCancelling {
            recognizerFlag(g, .cancelsTouchesInView(false), "cancelsTouchesInView", false, rule: byClass ? "X2" : "GS7")
        }
        if byClass { viewFlag(xv, .enabled(false), "enabled", "NO", rule: "X2") }
        if xv != info.view { prune(xv) }
        viewShouldBegin(xv, g, true, rule: byClass ? "X1" : "GS7")
    }

    /// `g` was prevented by `y`, which recognized first (GM2).
    private mutating func preventionFixes(_ g: Int, _ y: String) {
        guard let yg = index.recognizer(withId: y) else { return }
        recognizerFlag(yg, .enabled(false), "enabled", false, rule: "G4")
        delegateAnswer(g, .recognizeSimultaneouslyWith(y, delegate: delegateId(g)), "shouldRecognizeSimultaneouslyWith",
                       "shouldRecognizeSimultaneouslyWith += \(y)", rule: "GM3")
        relation(yg, adding: true, index.recognizers[g].id, rule: "GM6")
    }

    /// `g` requires `y` to fail and `y` recognized (GM6).
    private mutating func requirementFixes(_ g: Int, _ y: String) {
        relation(g, adding: false, y, rule: "GM6")
        if let yg = index.recognizer(withId: y) { recognizerFlag(yg, .enabled(false), "enabled", false, rule: "G4") }
    }

    mutating func stopRecognizer(_ rid: String) {
        guard let g = index.recognizer(withId: rid) else { return }
        let info = index.recognizers[g]
        recognizerFlag(g, .enabled(false), "enabled", false, rule: "G4")
        if info.spec != nil, !info.isScrollViewPan {
            delegateAnswer(g, .shouldBegin(false, delegate: delegateId(g)), "shouldBegin", "shouldBegin = NO", rule: "GS7")
            delegateAnswer(g, .shouldReceiveTouch(false, delegate: delegateId(g)), "shouldReceiveTouch", "shouldReceiveTouch = NO", rule: "G6")
        }
        for xv in askedViews(rid) { viewShouldBegin(xv, g, false, rule: "GS7") }
        // Wait for another recognizer of the same touches that recognizes or stays possible.
        var others: [String] = []
        for t in touches(of: rid) { for o in t.recognizers where o != rid && !others.contains(o) { others.append(o) } }
        for o in others where !info.requireToFail.contains(where: { index.recognizers[$0].id == o }) {
            relation(g, adding: true, o, rule: "GM6")
        }
        prune(info.view)
    }

    // MARK: actions

    /// Controls and recognizers that send `action`, at most three: those on the first touch's
    /// path first, then those nearest to its hit-test view (the deepest common ancestor), then
    /// in document order.
    private func senders(of action: String) -> [(view: Int?, recognizer: Int?)] {
        var found: [(sender: (view: Int?, recognizer: Int?), onPath: Bool, nearness: Int, order: Int)] = []
        let path = hitView.map { index.ancestry($0) } ?? []
        func nearness(_ v: Int) -> Int {
            guard let common = index.ancestry(v).first(where: { path.contains($0) }) else { return 0 }
            return index.depth(of: common)
        }
        for v in 0..<index.viewCount where index.scene.views[v].hasRareProperties {
            if index.scene.views[v].targets?.contains(where: { $0.action == action }) == true {
                found.append(((v, nil), v == hitView, nearness(v), found.count))
            }
            for g in index.recognizers(ofView: v) where index.recognizers[g].targets.contains(where: { $0.action == action }) {
                found.append(((nil, g), path.contains(v), nearness(v), found.count))
            }
        }
        found.sort { a, b in
            if a.onPath != b.onPath { return a.onPath }
            if a.nearness != b.nearness { return a.nearness > b.nearness }
            return a.order < b.order
        }
        return found.prefix(3).map(\.sender)
    }

    mutating func fireAction(_ action: String) {
        // Sent, but the nil-target walk found no implementer (A2).
        for a in baseline.actions where a.action == action && a.via == .unhandled {
            if let s = index.view(withId: a.sender), let vc = nearestController(s) {
                add([.view(id(vc), .controllerImplements(action))],
                    "add \(action) to \(index.view(vc).viewController!.id).implements", rule: "A2", size: .answer,
                    order: (vc, 0), property: "viewController.implements")
            }
        }
        for sender in senders(of: action) {
            if let g = sender.recognizer { fireRecognizer(index.recognizers[g].id); continue }
            guard let c = sender.view else { continue }
            if index.bases[c].isControl, !index.isEnabled(c) { viewFlag(c, .enabled(true), "enabled", "YES", rule: "K11") }
            for t in baseline.touches where t.hitTestView == id(c) {
                if let by = t.cancelledBy, let g = index.recognizer(withId: by) { cancelFixes(g, c) }
            }
            refusalFixes()
            if hitView != c { makeHit(c) }
        }
    }

    private func nearestController(_ v: Int) -> Int? {
        var current: Int? = v
        while let c = current {
            if index.view(c).viewController != nil { return c }
            current = index.superview(c)
        }
        return nil
    }

    /// Recognizer `g` recognized and took the touch from control `c` (GV2).
    private mutating func cancelFixes(_ g: Int, _ c: Int) {
        let info = index.recognizers[g]
        if info.cancelsTouchesInView { recognizerFlag(g, .cancelsTouchesInView(false), "cancelsTouchesInView", false, rule: "GV4") }
        if info.delaysTouchesBegan { recognizerFlag(g, .delaysTouchesBegan(false), "delaysTouchesBegan", false, rule: "GV5") }
        recognizerFlag(g, .enabled(false), "enabled", false, rule: "G4")
        viewShouldBegin(c, g, false, rule: "GS7")
        if info.spec != nil, !info.isScrollViewPan {
            delegateAnswer(g, .shouldBegin(false, delegate: delegateId(g)), "shouldBegin", "shouldBegin = NO", rule: "GS7")
        }
    }

    mutating func stopAction(_ action: String) {
        var senders: [String] = []
        for a in baseline.actions where a.action == action && a.via != .unhandled && !senders.contains(a.sender) {
            senders.append(a.sender)
        }
        for s in senders {
            if index.recognizer(withId: s) != nil { stopRecognizer(s); continue }
            guard let c = index.view(withId: s) else { continue }
            if index.bases[c].isControl, index.isEnabled(c) { viewFlag(c, .enabled(false), "enabled", "NO", rule: "K11") }
            prune(c)
            // A recognizer above the control that could take its touch (GV2): let it begin.
            for t in baseline.touches where t.hitTestView == s {
                for r in t.recognizers {
                    guard let g = index.recognizer(withId: r) else { continue }
                    let info = index.recognizers[g]
                    if WhatIfOutcome.recognized(r, in: baseline) {
                        if !info.cancelsTouchesInView {
                            recognizerFlag(g, .cancelsTouchesInView(true), "cancelsTouchesInView", true, rule: "GV2")
                        }
                    } else if failReasons[r] == "shouldBeginFalse(\(s))" || (failReasons[r] == nil && (classVetoes(c, g) || overrideVetoes(c, g))) {
                        viewShouldBegin(c, g, true, rule: classVetoes(c, g) ? "X1" : "GS7")
                    }
                }
            }
        }
    }

    // MARK: views' touches

    /// `v` receives `touchesBegan:withEvent:` (as the hit-test view, or forwarded, T5).
    mutating func makeReceive(_ v: Int) {
        guard let h = hitView, index.isDescendant(h, of: v) else { makeHit(v); return }
        refusalFixes()
        // Withheld and dropped (GV5), or a scroll view's delay (SV3).
        for t in baseline.touches where t.hitTestView == id(h) {
            for r in t.recognizers {
                guard let g = index.recognizer(withId: r) else { continue }
                let info = index.recognizers[g]
                if info.base == .scrollViewDelay {
                    recognizerFlag(g, .enabled(false), "enabled", false, rule: "SV3")
                } else if info.delaysTouchesBegan {
                    recognizerFlag(g, .delaysTouchesBegan(false), "delaysTouchesBegan", false, rule: "GV5")
                    recognizerFlag(g, .enabled(false), "enabled", false, rule: "G4")
                }
            }
        }
        // A deeper view keeps the touch and does not forward it (T7): a disabled control
        // forwards it (K11), or the point reaches `v` itself.
        if h != v {
            if index.bases[h].isControl, index.isEnabled(h) { viewFlag(h, .enabled(false), "enabled", "NO", rule: "K11") }
            makeHit(v)
        }
    }

    /// `v` receives no `touchesBegan:withEvent:`.
    mutating func keepFrom(_ v: Int) {
        prune(v)
        for t in baseline.touches {
            guard let h = t.hitTestView.flatMap({ index.view(withId: $0) }), index.isDescendant(h, of: v) else { continue }
            if h != v { prune(h) }
            for r in t.recognizers {
                guard let g = index.recognizer(withId: r), WhatIfOutcome.recognized(r, in: baseline) else { continue }
                if !index.recognizers[g].delaysTouchesBegan {
                    recognizerFlag(g, .delaysTouchesBegan(true), "delaysTouchesBegan", true, rule: "GV5")
                }
            }
        }
        if let s = index.superview(v) { prune(s) }
    }
}
