extension DispatchRun {
    func result(input: [TouchRecord], until: Double?) -> DispatchResult {
        var first: ObjectRef?
        var chain: [DispatchResult.ChainLink] = []
        if let t = touches.first, let v = t.view {
            first = index.ref(view: v)
            let (responders, cycle) = index.responderChain(from: .view(v), includeWindowScene: knobs.includeWindowScene)
            chain = responders.map { .init(ref: index.ref($0), role: index.role($0)) }
            if let cycle { chain.append(.init(ref: index.ref(cycle), role: "cycle")) }
        }
        let touchSummaries = touches.map { t in
            DispatchResult.TouchSummary(
                id: t.id, window: t.window.map { index.view($0).id }, hitTestView: t.view.map { index.view($0).id },
                recognizers: t.recognizers.map { info($0).id }, refused: t.refused, finalPhase: t.phase,
                cancelledBy: t.unboundBy.map { info($0).id })
        }
        let recognizerSummaries = recognizers.indices.map { g in
            DispatchResult.RecognizerSummary(id: info(g).id, className: info(g).className,
                                             view: index.view(info(g).view).id, states: recognizers[g].history)
        }
        var result = DispatchResult(firstResponder: first, responderChain: chain, touches: touchSummaries,
                                    recognizers: recognizerSummaries, actions: actions, recorder: trace,
                                    knobs: knobs, input: input, until: until)
        if input.contains(where: { $0.nonTouch != nil }) { result.nonTouch = nonTouchSummary() }
        result.warnings = index.warnings
        return result
    }
}
