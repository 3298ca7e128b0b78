import Foundation
import SceneTestSupport
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// "What would change it" (issue 31, item 3): single changes to the scene, each verified by
/// dispatching again, ranked by size, at most five.
struct WhatIfTests {
    /// A request decoded and dispatched once (traced, as `Why.answer` runs it).
    struct Run {
        let index: SceneIndex
        let records: [TouchRecord]
        let until: Double?
        let knobs: KnobOverrides
        let result: DispatchResult

        init(request bytes: [UInt8], traced: Bool = true) throws {
            let request = try InputDecoder.request(bytes)
            index = SceneIndex(validated: request.scene)
            records = request.records
            until = request.touches.until
            knobs = request.knobs
            result = TapTrace.dispatch(index, records: records, until: until, knobs: knobs, trace: traced)
        }

        init(_ scene: String, _ touches: String) throws {
            try self.init(request: Array(Scenes.request(scene, touches).utf8))
        }

        /// examples/checkout.request.json: a tap at (100, 332) on buyButton inside card, whose
        /// cardTap fails because the button answers NO to `gestureRecognizerShouldBegin:` (X1).
        static func checkout(traced: Bool = true) throws -> Run {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/checkout.request.json")
            return try Run(request: Array(try Data(contentsOf: url)), traced: traced)
        }

        func changes(_ subject: WhyQuestion.Subject, _ expect: WhyQuestion.Expectation,
                     wholeSceneLimit: Int = WhatIfScene.wholeSceneLimit) -> [WhyAnswer.Change] {
            WhatIf.changes(WhyQuestion(subject, expect: expect), expect: expect, index: index, records: records, until: until,
                           knobs: knobs, baseline: result, wholeSceneLimit: wholeSceneLimit)
        }

        func trials(_ subject: WhyQuestion.Subject, _ expect: WhyQuestion.Expectation,
                    wholeSceneLimit: Int = WhatIfScene.wholeSceneLimit) -> [WhatIf.Trial] {
            WhatIf.trials(WhyQuestion(subject, expect: expect), expect: expect, index: index, records: records, until: until,
                          knobs: knobs, baseline: result, wholeSceneLimit: wholeSceneLimit)
        }

        /// Verifies a change on its own: its edits applied to the whole scene, validated,
        /// dispatched, and the expectation checked.
        func check(_ change: WhyAnswer.Change, _ subject: WhyQuestion.Subject, _ expect: WhyQuestion.Expectation) throws -> Bool {
            let trial = try #require(trials(subject, expect).first { $0.candidate.edit == change.edit })
            let whole = WhatIfScene(index: index, records: records, candidates: [], wholeSceneLimit: .max)
            let edited = try #require(whole.applying(trial.candidate.edits))
            let editedIndex = try SceneIndex(validating: edited)
            let run = TapTrace.dispatch(editedIndex, records: records, until: until, knobs: knobs)
            return WhyQuestion(subject, expect: expect).isMet(by: run, expect: expect, index: editedIndex) == true
        }
    }

    private func change(_ changes: [WhyAnswer.Change], _ edit: String,
                        sourceLocation: SourceLocation = #_sourceLocation) -> WhyAnswer.Change? {
        let c = changes.first { $0.edit == edit }
        let listed = changes.map { "\($0.edit) [\($0.rule)]" }.joined(separator: "\n")
        #expect(c != nil, "no change \"\(edit)\" in:\n\(listed)", sourceLocation: sourceLocation)
        return c
    }

    // MARK: the checkout example

    @Test func makeCardTapFire() throws {
        let run = try Run.checkout()
        let changes = run.changes(.recognizer("cardTap"), .fired)
        let x1 = try #require(change(changes, "set buyButton.overrides.gestureRecognizerShouldBegin for cardTap = YES"))
        #expect(x1.rule == "X1" && x1.verified)
        #expect(x1.outcome == "cardTap recognizes at t=0.08; buyTapped: is no longer sent")
        let cancels = try #require(change(changes, "set cardTap.cancelsTouchesInView = NO"))
        #expect(cancels.rule == "X2" && cancels.outcome == "cardTap recognizes at t=0.08")  // the button's action still runs
        let pruned = try #require(change(changes, "set buyButton.userInteractionEnabled = NO"))
        #expect(pruned.rule == "H2" && pruned.outcome.contains("the hit-test view is card (was buyButton)"))
        // Flags before answers; document order (card's cardTap before buyButton) within each.
        #expect(changes.map(\.edit) == ["set cardTap.cancelsTouchesInView = NO", "set buyButton.enabled = NO",
                                        "set buyButton.userInteractionEnabled = NO",
                                        "set buyButton.overrides.gestureRecognizerShouldBegin for cardTap = YES"])
        for c in changes { #expect(try run.check(c, .recognizer("cardTap"), .fired), "\(c.edit)") }
    }

    /// Without a trace the failure reason is not known: the causes the run could have had are
    /// tried, and the same changes come back.
    @Test func makeCardTapFireFromAnUntracedRun() throws {
        let traced = try Run.checkout().changes(.recognizer("cardTap"), .fired)
        #expect(try Run.checkout(traced: false).changes(.recognizer("cardTap"), .fired) == traced)
    }

    @Test func keepBuyTappedFromBeingSent() throws {
        let run = try Run.checkout()
        let changes = run.changes(.action("buyTapped:"), .notFired)
        let disabled = try #require(change(changes, "set buyButton.enabled = NO"))
        #expect(disabled.rule == "K11" && disabled.outcome.hasPrefix("buyTapped: is not sent"))
        let x1 = try #require(change(changes, "set buyButton.overrides.gestureRecognizerShouldBegin for cardTap = YES"))
        #expect(x1.rule == "X1" && x1.outcome == "buyTapped: is not sent; cardTap recognizes; cardTapped: is sent")
        #expect(changes.allSatisfy { $0.verified && $0.outcome.hasPrefix("buyTapped: is not sent") })
        for c in changes { #expect(try run.check(c, .action("buyTapped:"), .notFired), "\(c.edit)") }
    }

    /// title is a UILabel (H9) 170 pt above the point, behind buyButton: no single change makes
    /// it the hit-test view, and each was tried; the one change found combines the three.
    @Test func makeTitleTheHitTestView() throws {
        let run = try Run.checkout()
        let trials = run.trials(.view("title"), .hit)
        let tried = Dictionary(trials.map { ($0.candidate.edit, $0) }, uniquingKeysWith: { a, _ in a })
        for edit in ["set title.userInteractionEnabled = YES", "move title to contain (100, 332): frame = [16, 200, 326, 24]",
                     "resize title to contain (100, 332): frame = [16, 16, 326, 197]", "set buyButton.userInteractionEnabled = NO"] {
            let t = try #require(tried[edit], "\(edit) not tried")
            #expect(t.run != nil && t.outcome == nil, "\(edit)")                  // dispatched, and not enough
        }
        #expect(tried["set buyButton.userInteractionEnabled = NO"]?.run?.touches.first?.hitTestView == "card")
        let changes = run.changes(.view("title"), .hit)
        #expect(changes.count == 1)
        let c = try #require(changes.first)
        #expect(c.edit == "set title.userInteractionEnabled = YES; move title to contain (100, 332): frame = [16, 200, 326, 24]; bring title to the front of card")
        #expect(c.rule == "H9, H4, H1" && c.verified)
        #expect(c.outcome.hasPrefix("title is the hit-test view; cardTap recognizes"))
        #expect(try run.check(c, .view("title"), .hit))
    }

    @Test func viewTouchesBeganAndKeptAway() throws {
        let run = try Run.checkout()
        // card gets no touchesBegan: buyButton does not forward (T7).
        let receive = run.changes(.view("card"), .fired)
        #expect(receive.map(\.edit) == ["set buyButton.enabled = NO", "set buyButton.userInteractionEnabled = NO"])
        #expect(receive.first?.rule == "K11" && receive.first?.outcome.hasPrefix("card receives touchesBegan:withEvent:") == true)
        #expect(run.trials(.view("card"), .fired).contains { $0.candidate.edit == "set scroll.scrollView.delaysContentTouches = NO" && $0.outcome == nil })
        let keep = run.changes(.view("buyButton"), .notFired)
        #expect(keep.map(\.edit) == ["set card.userInteractionEnabled = NO", "set buyButton.userInteractionEnabled = NO"])
        for c in keep { #expect(try run.check(c, .view("buyButton"), .notFired)) }
    }

    @Test func alreadyMetGivesNone() throws {
        let run = try Run.checkout()
        #expect(run.changes(.recognizer("cardTap"), .notFired).isEmpty)
        #expect(run.changes(.action("buyTapped:"), .fired).isEmpty)
        #expect(run.changes(.view("buyButton"), .hit).isEmpty)
        #expect(run.changes(.view("buyButton"), .fired).isEmpty)
        #expect(run.trials(.action("buyTapped:"), .fired).isEmpty)                // nothing dispatched
        let answer = try Why.answer(WhyQuestion(.recognizer("cardTap"), expect: .notFired), index: run.index,
                                    records: run.records, result: run.result)
        #expect(answer.changes.isEmpty)
    }

    @Test func whyAnswerCarriesTheChanges() throws {
        let run = try Run.checkout()
        let answer = try Why.answer(WhyQuestion(.recognizer("cardTap"), expect: .fired), index: run.index,
                                    records: run.records, until: run.until, knobs: run.knobs, result: run.result)
        #expect(answer.changes == run.changes(.recognizer("cardTap"), .fired))
    }

    // MARK: ranking and bounds

    /// A tap on C inside P: P's tap and C's own tap both recognize (simultaneous; C's does not
    /// take the touch from C, so C is asked about P's). Six single changes keep P's tap from
    /// recognizing; five come back, smallest first.
    static let sixWays = Scenes.scene(#"""
        {"id": "P", "class": "UIView", "frame": [0, 100, 390, 400],
         "gestureRecognizers": [{"id": "tap", "class": "UITapGestureRecognizer", "targets": [{"target": "VC", "action": "tapped:"}]}],
         "subviews": [{"id": "C", "class": "UIView", "frame": [20, 20, 200, 200],
           "gestureRecognizers": [{"id": "ctap", "class": "UITapGestureRecognizer", "cancelsTouchesInView": false,
             "delegate": {"id": "VC", "shouldRecognizeSimultaneouslyWith": "all"},
             "targets": [{"target": "VC", "action": "cTapped:"}]}]}]}
        """#)

    @Test func atMostFiveInAStableOrder() throws {
        let run = try Run(Self.sixWays, Scenes.tap(100, 200))
        #expect(WhatIfOutcome.recognized("tap", in: run.result) && WhatIfOutcome.recognized("ctap", in: run.result))
        let verified = run.trials(.recognizer("tap"), .notFired).filter { $0.outcome != nil }.map(\.candidate.edit)
        #expect(verified.count == 6)
        #expect(verified.contains("add ctap to tap.requireToFail"))
        let changes = run.changes(.recognizer("tap"), .notFired)
        #expect(changes.map(\.edit) == [
            "set P.userInteractionEnabled = NO",                                  // flags: P, then its recognizer
            "set tap.enabled = NO",
            "set tap.delegate.shouldBegin = NO (VC becomes its delegate)",       // answers: tap's, then C's
            "set tap.delegate.shouldReceiveTouch = NO (VC becomes its delegate)",
            "set C.overrides.gestureRecognizerShouldBegin for tap = NO",
        ])                                                                        // the relation is sixth
        #expect(changes.map(\.rule) == ["H2", "G4", "GS7", "G6", "GS7"])
        for _ in 0..<3 { #expect(run.changes(.recognizer("tap"), .notFired) == changes) }
        for c in changes { #expect(try run.check(c, .recognizer("tap"), .notFired), "\(c.edit)") }
    }

    /// Thirty nested views in front of T: more than thirty candidates, 24 runs, the outermost
    /// blocker first.
    @Test func runsAreCapped() throws {
        var nested = ""
        for k in (0..<30).reversed() {
            nested = #"{"id": "D\#(k)", "class": "UIView", "frame": [0, 0, 200, 200]"# + (nested.isEmpty ? "" : #", "subviews": [\#(nested)]"#) + "}"
        }
        let run = try Run(Scenes.scene(#"{"id": "T", "class": "UIView", "frame": [0, 100, 200, 200]}, "# + nested), Scenes.tap(50, 150))
        #expect(run.result.touches.first?.hitTestView == "D29")
        let trials = run.trials(.view("T"), .hit)
        #expect(trials.count == WhatIf.maximumRuns)
        #expect(trials.first?.candidate.edit == "set D0.userInteractionEnabled = NO" && trials.first?.outcome == "T is the hit-test view")
        #expect(run.changes(.view("T"), .hit).map(\.edit) == ["set D0.userInteractionEnabled = NO"])
        #expect(WhatIf.runs(forViews: 160) == 24 && WhatIf.runs(forViews: 320) == 12 && WhatIf.runs(forViews: 1_000) == 4)
    }

    @Test func requirementRemoved() throws {
        let scene = Scenes.scene(#"""
            {"id": "P", "class": "UIView", "frame": [0, 100, 390, 400],
             "gestureRecognizers": [
               {"id": "single", "class": "UITapGestureRecognizer", "requireToFail": ["other"], "targets": [{"target": "VC", "action": "single:"}]},
               {"id": "other", "class": "UITapGestureRecognizer", "delegate": {"id": "VC", "shouldRecognizeSimultaneouslyWith": "all"},
                "targets": [{"target": "VC", "action": "other:"}]}]}
            """#)
        let run = try Run(scene, Scenes.tap(100, 200))
        #expect(!WhatIfOutcome.recognized("single", in: run.result))
        let changes = run.changes(.recognizer("single"), .fired)
        let removed = try #require(change(changes, "remove other from single.requireToFail"))
        #expect(removed.rule == "GM6" && removed.outcome.hasPrefix("single recognizes at t=0.1"))
        let disabled = try #require(change(changes, "set other.enabled = NO"))
        #expect(disabled.rule == "G4")
        #expect(changes.firstIndex { $0.edit == disabled.edit }! < changes.firstIndex { $0.edit == removed.edit }!)
    }

    /// An image view (H9) in a view at alpha 0.005 (H3): each fix alone is tried and is not
    /// enough; together they are the one change.
    @Test func pruningOnTheViewAndAnAncestor() throws {
        let scene = Scenes.scene(#"""
            {"id": "box", "class": "UIView", "frame": [0, 100, 390, 400], "alpha": 0.005, "subviews": [
              {"id": "pic", "class": "UIImageView", "frame": [0, 0, 200, 200]}]}
            """#)
        let run = try Run(scene, Scenes.tap(50, 150))
        #expect(run.result.touches.first?.hitTestView == "R")
        let trials = run.trials(.view("pic"), .hit)
        let alpha = try #require(trials.first { $0.candidate.edit == "set box.alpha = 1" })
        #expect(alpha.candidate.rule == "H3" && alpha.outcome == nil && alpha.run?.touches.first?.hitTestView == "box")
        let interaction = try #require(trials.first { $0.candidate.edit == "set pic.userInteractionEnabled = YES" })
        #expect(interaction.candidate.rule == "H9" && interaction.outcome == nil)
        let changes = run.changes(.view("pic"), .hit)
        #expect(changes.map(\.edit) == ["set pic.userInteractionEnabled = YES; set box.alpha = 1"])
        #expect(changes.first?.rule == "H9, H3" && changes.first?.outcome == "pic is the hit-test view")
    }

    // MARK: the verification scene

    /// A table like the benchmarks' 1,000-view screen (bench/taptrace-bench/Scenes.swift),
    /// with a tap recognizer on each cell.
    static func table(cells: Int) -> String {
        func v(_ id: String, _ cls: String, _ frame: String, _ extra: String = "", _ sub: [String] = []) -> String {
            #"{"id": "\#(id)", "class": "\#(cls)", "frame": [\#(frame)]\#(extra)\#(sub.isEmpty ? "" : #", "subviews": ["# + sub.joined(separator: ",") + "]")}"#
        }
        var rows: [String] = []
        for i in 0..<cells {
            let button = v("buy\(i)", "UIButton", "0, 0, 60, 32", #", "targets": [{"events": ["touchUpInside"], "target": null, "action": "buy:"}]"#,
                           [v("buy\(i).label", "UIButtonLabel", "8, 6, 44, 20", #", "base": "UILabel""#)])
            let accessory = v("acc\(i)", "UIView", "300, 10, 80, 40", "", [v("wrap\(i)", "UIView", "10, 4, 70, 36", "", [button])])
            let texts = v("texts\(i)", "UIStackView", "60, 5, 130, 50", "", [v("title\(i)", "UILabel", "0, 0, 130, 25"), v("subtitle\(i)", "UILabel", "0, 25, 130, 25")])
            let stack = v("stack\(i)", "UIStackView", "0, 0, 390, 60", "", [v("image\(i)", "UIImageView", "5, 5, 50, 50"), texts, accessory])
            // cellTap3 requires nav's recognizer to fail (which holds no touch, so it does not wait).
            let requirement = i == 3 ? #", "requireToFail": ["navTap"]"# : ""
            let tap = #", "gestureRecognizers": [{"id": "cellTap\#(i)", "class": "UITapGestureRecognizer"\#(requirement), "targets": [{"target": "VC", "action": "select:"}]}]"#
            rows.append(v("cell\(i)", "UITableViewCell", "0, \(i * 60), 390, 60", tap, [v("content\(i)", "UIView", "0, 0, 390, 60", "", [stack])]))
        }
        let table = v("table", "UITableView", "0, 88, 390, 700", #", "scrollView": {"contentSize": [390, \#(cells * 60)]}"#, rows)
        let navTap = #", "gestureRecognizers": [{"id": "navTap", "class": "UITapGestureRecognizer", "targets": [{"target": "VC", "action": "top:"}]}]"#
        let nav = v("nav", "UIView", "0, 0, 390, 88", navTap, [v("navTitle", "UILabel", "100, 44, 190, 44")])
        return Scenes.scene(table + "," + nav, vc: #""implements": ["buy:", "select:"]"#)
    }

    /// What a run gives, for comparing the verification scene's runs with the whole scene's.
    static func fingerprint(_ r: DispatchResult?) -> String {
        guard let r else { return "no run" }
        var s = "first \(r.firstResponder?.id ?? "-") chain \(r.responderChain.map(\.ref.id))\n"
        for t in r.touches {
            s += "touch \(t.id) \(t.window ?? "-") \(t.hitTestView ?? "-") \(t.recognizers) \(t.refused?.rawValue ?? "-") \(t.finalPhase) \(t.cancelledBy ?? "-")\n"
        }
        for g in r.recognizers { s += "recognizer \(g.id) \(g.states.map(\.rawValue))\n" }
        for a in r.actions { s += "action \(a.t) \(a.action) \(a.sender) \(a.target ?? "-") \(a.via) \(a.state?.rawValue ?? "-")\n" }
        return s
    }

    /// Every candidate's run on the verification scene is the run on the whole scene.
    @Test(arguments: [
        (WhyQuestion.Subject.recognizer("cellTap3"), WhyQuestion.Expectation.fired), (.action("buy:"), .notFired),
        (.view("image3"), .hit), (.view("title3"), .hit), (.view("content3"), .fired), (.action("select:"), .fired),
        (.recognizer("table.pan"), .fired), (.view("buy3"), .notFired), (.view("navTitle"), .hit), (.recognizer("cellTap3"), .notFired),
    ])
    func verificationSceneRunsAsTheWholeScene(_ subject: WhyQuestion.Subject, _ expect: WhyQuestion.Expectation) throws {
        let run = try Run(Self.table(cells: 12), Scenes.tap(340, 88 + 3 * 60 + 30))
        #expect(run.result.touches.first?.hitTestView == "buy3")
        let reduced = run.trials(subject, expect, wholeSceneLimit: 0)
        let whole = run.trials(subject, expect, wholeSceneLimit: .max)
        #expect(reduced.map(\.candidate.edit) == whole.map(\.candidate.edit))
        for (r, w) in zip(reduced, whole) {
            #expect(Self.fingerprint(r.run) == Self.fingerprint(w.run), "\(r.candidate.edit)")
            #expect(r.outcome == w.outcome, "\(r.candidate.edit)")
        }
    }

    @Test func verificationSceneOfTheCheckout() throws {
        let run = try Run.checkout()
        for (s, e) in [(WhyQuestion.Subject.recognizer("cardTap"), WhyQuestion.Expectation.fired), (.view("title"), .hit),
                       (.action("buyTapped:"), .notFired), (.view("card"), .fired)] {
            let reduced = run.trials(s, e, wholeSceneLimit: 0), whole = run.trials(s, e, wholeSceneLimit: .max)
            #expect(reduced.map { Self.fingerprint($0.run) } == whole.map { Self.fingerprint($0.run) })
        }
    }

    @Test func verificationSceneKeepsWhatTheTouchReaches() throws {
        let run = try Run(Self.table(cells: 12), Scenes.tap(340, 88 + 3 * 60 + 30))
        let kept = WhatIfScene(index: run.index, records: run.records, candidates: [], wholeSceneLimit: 0).scene
        let ids = Set(kept.views.map(\.id))
        // The windows and what contains the point; nav, whose recognizer cellTap3 requires.
        #expect(ids == ["W", "R", "table", "cell3", "content3", "stack3", "acc3", "wrap3", "buy3", "buy3.label", "nav"])
        // A candidate that moves image3 keeps it, with its subtree.
        let move = WhatIfCandidate(edits: [.view("image3", .frame(Rect(315, 5, 50, 50)))], edit: "move", rule: "H4",
                                   size: .geometry, order: (0, 0), property: "frame", openViews: [run.index.view(withId: "image3")!])
        let withMove = WhatIfScene(index: run.index, records: run.records, candidates: [move], wholeSceneLimit: 0)
        #expect(Set(withMove.scene.views.map(\.id)) == ids.union(["image3"]))
        #expect(withMove.applying([.view("title3", .hidden(true))]) == nil)                // not there: cannot matter
        #expect(run.index.viewCount == 5 + 12 * 11)                                      // of 137
        #expect(try SceneIndex(validating: kept).viewCount == kept.views.count)
    }
}
