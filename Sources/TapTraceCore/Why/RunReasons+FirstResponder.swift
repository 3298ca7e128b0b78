/// "Why are the first responder and the chain what they are?": the first touch's hit-test
/// (H1, R1, with `Explainer`'s reasons for that view), then each link of the result's
/// `responderChain` by the rule that chose it (R2–R7) and why it ends (R4, R7, R9).
extension RunReasons {
    static func firstResponder(_ run: RunFacts) -> Finding {
        guard let first = run.touches.first else {
            return Finding(short: "There is no first responder: the run has no touch", reasons: [])
        }
        let roots = run.hitTestCalls(first)
        guard let fr = run.result.firstResponder, run.index.view(withId: fr.id) != nil else {
            if first.summary?.refused == .ignoringInteractionEvents {
                return Finding(short: "There is no first responder: the application ignores interaction events (Z2)",
                               reasons: [Reason(rule: "Z2", text: "the application ignores interaction events: \(first.id) was dropped before any hit-test", trace: run.markers(.gate, touch: first.id))])
            }
            return Finding(short: "There is no first responder: no window's hit-test returned a view for \(first.id) at \(RunFacts.point(first.at)) (W5)",
                           reasons: [Reason(rule: "W5", text: "\(first.id) began at \(RunFacts.point(first.at)) and every window's hit-test returned nil: the touch is dropped and nothing is its first responder", trace: roots)])
        }
        var reasons: [Reason] = []
        let deciding = roots.filter { run.trace[$0].result.map { $0 != .null } ?? false }
        let onView = run.hitTestCalls(on: fr.id, first).filter { run.trace[$0].selector == "hitTest:withEvent:" }
        let collect = run.markers(.collect, touch: first.id).first
        reasons.append(Reason(rule: "R1", text: "the first responder for touches is the hit-test view of the run's first touch: \(first.id) began at \(RunFacts.point(first.at)) at \(RunFacts.time(first.began)) and the hit-test returned \(fr.id)",
                              trace: Array(deciding.suffix(1)) + Array(onView.suffix(1)) + (collect.map { [$0] } ?? [])))
        if let e = try? Explainer.explain(run.index, point: first.at, target: fr.id, knobs: run.knobOverrides) {
            for r in e.reasons {
                var shown: [Int] = []
                for ref in r.views { shown += run.hitTestCalls(on: ref.id, first) }
                reasons.append(Reason(rule: r.rule, text: r.text, trace: Array(Set(shown)).sorted()))
            }
        }

        let links = run.result.responderChain
        var rules: [String] = []
        for k in links.indices {
            let link = links[k]
            if link.role == "cycle" { continue }
            let next = k + 1 < links.count ? links[k + 1] : nil
            let reason = chainLink(link, next, run)
            if !rules.contains(reason.rule) { rules.append(reason.rule) }
            reasons.append(reason)
        }
        let chain = links.filter { $0.role != "cycle" }.map(\.ref.id)
        let allLinks = reasons.suffix(links.count).flatMap(\.trace)
        reasons.append(Reason(rule: "R9", text: "the chain is nextResponder applied from \(fr.id) until it returns nil: \(chain.joined(separator: " → "))",
                              trace: Array(Set(allLinks)).sorted()))
        let sorted = rules.sorted { ($0.count, $0) < ($1.count, $1) }
        return Finding(short: "\(fr.id) is the first responder: \(first.id) at \(RunFacts.point(first.at)) was hit-tested to it (H1, R1); its chain is \(chain.joined(separator: " → ")) (\(sorted.joined(separator: ", ")))",
                       reasons: reasons)
    }

    /// One link of the chain: why `next` follows `link` (R2–R7), or why the chain ends there.
    private static func chainLink(_ link: DispatchResult.ChainLink, _ next: DispatchResult.ChainLink?, _ run: RunFacts) -> Reason {
        let id = link.ref.id
        let responder = self.responder(link, run)
        let shown = next.map { linkEntries(from: id, to: $0.ref.id, run) } ?? []
        guard let next else {
            return chainEnd(link, responder, run)
        }
        let to = next.ref.id
        if next.role == "cycle" {
            return Reason(rule: "R7", text: "\(id) overrides nextResponder to return \(to), which is already in the chain: the chain stops there instead of repeating", trace: shown)
        }
        if let r = responder, let o = nextOverride(r, run.index), o == to {
            return Reason(rule: "R7", text: "\(id) overrides nextResponder to return \(to), replacing the default rules", trace: shown)
        }
        switch responder {
        case .view(let v)?:
            if let vc = run.index.view(v).viewController, vc.id == to {
                return Reason(rule: "R2", text: "\(id) is the root view of \(to), so its next responder is its view controller", trace: shown)
            }
            if run.index.superview(v) != nil {
                return Reason(rule: "R2", text: "\(id)'s next responder is its superview \(to)", trace: shown)
            }
            if next.role == "windowScene" {
                return Reason(rule: "R6", text: "the window \(id)'s next responder is its window scene (knob includeWindowScene)", trace: shown)
            }
            return Reason(rule: "R4", text: "\(id) is a window: its next responder is the application \(to)", trace: shown)
        case .viewController(let v)?:
            let vc = run.index.view(v).viewController
            if let presenter = vc?.presentedBy, presenter == to {
                return Reason(rule: "R3", text: "\(id) was presented by \(to), so its next responder is the presenting view controller (A6)", trace: shown)
            }
            if let s = run.index.superview(v), run.index.superview(s) == nil {
                return Reason(rule: "R3", text: "\(id)'s view \(run.name(v)) is the root view of the window \(to), so its next responder is the window", trace: shown)
            }
            return Reason(rule: "R5", text: "\(id) is a child view controller: its next responder is its view's superview \(to)", trace: shown)
        case .windowScene?:
            return Reason(rule: "R6", text: "the window scene's next responder is the application \(to)", trace: shown)
        case .application?:
            return Reason(rule: "R4", text: "the application's next responder is its delegate \(to), a UIResponder that is not a view, view controller or the application", trace: shown)
        case .appDelegate?, nil:
            return Reason(rule: "R9", text: "\(id)'s next responder is \(to)", trace: shown)
        }
    }

    private static func chainEnd(_ link: DispatchResult.ChainLink, _ responder: Responder?, _ run: RunFacts) -> Reason {
        let id = link.ref.id
        switch responder {
        case .appDelegate?:
            return Reason(rule: "R4", text: "the app delegate \(id) is the last responder: its next responder is nil", trace: [])
        case .application?:
            return Reason(rule: "R4", text: "the application is the last responder: its delegate is \(run.index.appDelegateRef == nil ? "missing" : "not a UIResponder"), so its next responder is nil", trace: [])
        default:
            if let r = responder, let o = nextOverride(r, run.index) {
                return Reason(rule: "R7", text: "\(id) overrides nextResponder to return \(o), which is not a responder of the scene: the chain ends", trace: [])
            }
            return Reason(rule: "R9", text: "\(id)'s next responder is nil: the chain ends", trace: [])
        }
    }

    private static func responder(_ link: DispatchResult.ChainLink, _ run: RunFacts) -> Responder? {
        switch link.role {
        case "view", "window": return run.index.view(withId: link.ref.id).map { .view($0) }
        case "viewController": return run.index.responder(withId: link.ref.id)
        case "windowScene": return .windowScene
        case "application": return .application
        case "appDelegate": return .appDelegate
        default: return nil
        }
    }

    /// Entries that show a link in use: touch methods forwarded from `from` to `to` (T5) and
    /// nil-target walk steps from one to the other (A2).
    private static func linkEntries(from: String, to: String, _ run: RunFacts) -> [Int] {
        var out: [Int] = []
        for i in run.trace.entries(of: to) {
            let e = run.trace[i]
            if e.touchPhase != nil, let p = run.trace.forwardedFrom(i), run.trace[p].receiver?.id == from {
                out.append(i)
            } else if e.marker == .chainWalk, e.arg("implements") != nil,
                      let previous = run.trace.last(before: i, where: { $0.marker == .chainWalk }),
                      run.trace[previous].receiver?.id == from, run.trace[previous].arg("implements") != nil,
                      run.trace[previous].parent == e.parent {
                out.append(i)
            }
        }
        return out
    }
}
