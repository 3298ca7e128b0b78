import SceneTestSupport
import TapTraceCore
import TapTraceFormats
import TapTraceJSON
import Testing

/// Issue 32, item 1: touches without boilerplate. In a request `format` may be left out, and a
/// gesture without `t` starts 1 s after the previous gesture ends (the first at 0); an `events`
/// record still needs its `t`, and a standalone touches document still needs `format`.
struct TouchesWithoutBoilerplateTests {
    static let scene = Scenes.scene(#"{"id": "B", "class": "UIButton", "frame": [20, 100, 200, 50]}"#)

    func request(_ touches: String) throws -> DecodedRequest {
        try InputDecoder.request(Array(Scenes.request(Self.scene, touches).utf8))
    }

    func pointers(_ touches: String) -> [String] {
        do { _ = try request(touches); return [] } catch {
            guard case .invalid(let failure)? = error as? InputError else { return ["not a validation failure"] }
            return failure.issues.map(\.pointer)
        }
    }

    func close(_ a: [Double], _ b: [Double]) -> Bool { a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 } }

    @Test func formatMayBeLeftOutInARequest() throws {
        let r = try request(#"{"gestures": [{"tap": [30, 110], "t": 0}]}"#)
        #expect(r.records.map(\.t) == [0, 0.1])
        // The same document with format gives the same records.
        let same = try request(#"{"format": "taptrace/touches@1", "gestures": [{"tap": [30, 110], "t": 0}]}"#)
        #expect(same.records == r.records && same.touches == r.touches)
    }

    @Test func aWrongFormatIsStillAnError() {
        #expect(pointers(#"{"format": "taptrace/touches@2", "gestures": [{"tap": [30, 110]}]}"#) == ["/touches/format"])
    }

    @Test func aStandaloneTouchesDocumentStillNeedsFormat() {
        #expect(throws: InputError.self) { try InputDecoder.touches(Array(#"{"gestures": [{"tap": [1, 1], "t": 0}]}"#.utf8)) }
    }

    @Test func gesturesWithoutTFollowOneSecondAfterThePreviousEnds() throws {
        let r = try request(#"{"gestures": [{"tap": [30, 110]}, {"longPress": [30, 110]}, {"doubleTap": [30, 110]}, {"drag": {"from": [30, 110], "to": [30, 140]}, "steps": 1}, {"tap": [30, 110]}]}"#)
        let starts = r.records.filter { $0.touches.contains { $0.phase == .began } }.map(\.t)
        // tap 0–0.1; long press 1.1–1.9; double tap 2.9–3.2 (two touches); drag 4.2–4.5; tap 5.5.
        #expect(close(starts, [0, 1.1, 2.9, 3.1, 4.2, 5.5]))
        #expect(close(TouchSequenceValidator.startTimes(r.touches.gestures), [0, 1.1, 2.9, 4.2, 5.5]))
    }

    @Test func twoUntimedTapsAreTwoSingleTaps() throws {
        let scene = Scenes.scene(#"{"id": "V", "class": "UIView", "frame": [0, 0, 390, 844], "gestureRecognizers": [{"id": "dbl", "class": "UITapGestureRecognizer", "numberOfTapsRequired": 2}]}"#)
        let result = try Scenes.run(scene, #"{"gestures": [{"tap": [50, 50]}, {"tap": [50, 50]}]}"#)
        #expect(!result.states("dbl").contains(.ended))
    }

    @Test func explicitAndDefaultTimesMix() throws {
        // An explicit t counts for the gesture after it; the one before an explicit t is unaffected.
        let r = try request(#"{"gestures": [{"tap": [30, 110]}, {"tap": [30, 110], "t": 5}, {"tap": [30, 110], "duration": 0.5}]}"#)
        #expect(close(TouchSequenceValidator.startTimes(r.touches.gestures), [0, 5, 6.1]))
        #expect(close(r.records.map(\.t), [0, 0.1, 5, 5.1, 6.1, 6.6]))
    }

    @Test func eventsStillNeedT() {
        #expect(pointers(#"{"events": [{"touches": [{"id": "A", "phase": "began", "at": [1, 1]}]}], "gestures": [{"tap": [30, 110]}]}"#)
                == ["/touches/events/0"])
    }

    @Test func anInvalidTIsReportedWhereItIs() {
        #expect(pointers(#"{"gestures": [{"tap": [30, 110]}, {"tap": [30, 110], "t": "soon"}]}"#) == ["/touches/gestures/1/t"])
    }

    @Test func aRequestBuiltInCodeMayLeaveTOut() throws {
        let scene = try InputDecoder.scene(Array(Self.scene.utf8))
        let seq = TouchSequence(gestures: [.tap(at: .point(Point(30, 110)), t: nil, duration: nil),
                                           .tap(at: .point(Point(30, 110)), t: nil, duration: nil)])
        let result = try TapTrace.dispatch(DispatchRequest(scene: scene, touches: seq))
        #expect(close(result.input.map(\.t), [0, 0.1, 1.1, 1.2]))
    }
}

/// Issue 32, item 2: tap by element. `{"view": X}` names a view by id, else
/// accessibilityIdentifier, else label; the gesture touches the centre of its frame on screen,
/// and the result says whether that point reaches the view (`elements`).
struct ElementTargetTests {
    /// B sits in a container C moved by its bounds origin, so the centre needs the conversion.
    static let scene = Scenes.scene("""
        {"id": "C", "class": "UIView", "frame": [10, 200, 300, 300], "bounds": [0, 50, 300, 300], "subviews": [
          {"id": "B", "class": "UIButton", "frame": [20, 100, 200, 50], "accessibilityIdentifier": "buy", "label": "Buy now",
           "subviews": [{"id": "icon", "class": "UIView", "frame": [90, 15, 20, 20]}]},
          {"id": "L1", "class": "UILabel", "frame": [0, 0, 10, 10], "label": "Twice"},
          {"id": "L2", "class": "UILabel", "frame": [0, 20, 10, 10], "label": "Twice", "accessibilityIdentifier": "other"},
          {"id": "X1", "class": "UIView", "frame": [0, 40, 10, 10], "accessibilityIdentifier": "dup"},
          {"id": "X2", "class": "UIView", "frame": [0, 60, 10, 10], "accessibilityIdentifier": "dup"}
        ]}
        """)

    static func issues(_ scene: String, _ touches: String) -> [ValidationIssue] {
        do { _ = try Scenes.run(scene, touches); return [] } catch {
            guard case .invalid(let failure)? = error as? InputError else { return [] }
            return failure.issues
        }
    }

    @Test(arguments: ["B", "buy", "Buy now"])
    func aViewIsFoundByIdIdentifierOrLabel(_ name: String) throws {
        let result = try Scenes.run(Self.scene, #"{"gestures": [{"tap": {"view": "\#(name)"}}]}"#)
        // C's frame origin (10, 200), its bounds origin (0, 50): B's centre (120, 125) is (130, 275).
        #expect(result.input.first?.touches.first?.at == Point(130, 275))
        // The centre is on B's icon: a descendant, so B is hittable.
        #expect(result.elements == [ElementCheck(gesture: 0, view: "B", point: Point(130, 275), hittable: true,
                                                 hitTestView: "icon", reasons: [])])
        #expect(result.touches.first?.hitTestView == "icon")
    }

    @Test func anIdWinsOverAnIdentifierAndAnIdentifierOverALabel() throws {
        // "other" is L2's identifier; "Twice" is two labels, but no identifier: ambiguous.
        let r = try Scenes.run(Self.scene, #"{"gestures": [{"tap": {"view": "other"}}]}"#)
        #expect(r.elements.first?.view == "L2")
    }

    @Test func theViewItselfAtTheCentreIsHittable() throws {
        let r = try Scenes.run(Self.scene, #"{"gestures": [{"longPress": {"view": "icon"}}]}"#)
        #expect(r.elements.first?.hittable == true)
        #expect(r.elements.first?.hitTestView == "icon")
        #expect(r.elements.first?.point == Point(130, 275))
    }

    @Test func noMatchIsAnIssueAtThePointer() {
        let issues = Self.issues(Self.scene, #"{"gestures": [{"tap": [1, 1]}, {"drag": {"from": [1, 1], "to": {"view": "nope"}}}]}"#)
        #expect(issues.map(\.pointer) == ["/touches/gestures/1/drag/to/view"])
        #expect(issues.first?.message.contains("\"nope\"") == true)
    }

    @Test func ambiguityListsTheCandidates() {
        let byIdentifier = Self.issues(Self.scene, #"{"gestures": [{"doubleTap": {"view": "dup"}}]}"#)
        #expect(byIdentifier.map(\.pointer) == ["/touches/gestures/0/doubleTap/view"])
        #expect(byIdentifier.first?.message.contains("accessibilityIdentifier of 2 views: X1, X2") == true)
        let byLabel = Self.issues(Self.scene, #"{"gestures": [{"tap": {"view": "Twice"}}]}"#)
        #expect(byLabel.first?.message.contains("label of 2 views: L1, L2") == true)
    }

    @Test func aTargetMustBeAPointOrAView() throws {
        let bad = [#"{"gestures": [{"tap": {"id": "B"}}]}"#, #"{"gestures": [{"tap": {}}]}"#, #"{"gestures": [{"tap": "B"}]}"#]
        for touches in bad {
            let pointers = Self.issues(Self.scene, touches).map(\.pointer)
            #expect(pointers.first?.hasPrefix("/touches/gestures/0/tap") == true, "\(touches): \(pointers)")
        }
    }

    @Test func aCoveredViewIsNotHittableAndTheReasonsSayWhy() throws {
        let scene = Scenes.scene("""
            {"id": "B", "class": "UIButton", "frame": [20, 100, 200, 50]},
            {"id": "cover", "class": "UIView", "frame": [0, 0, 390, 400]}
            """)
        let r = try Scenes.run(scene, #"{"gestures": [{"tap": {"view": "B"}}, {"tap": [300, 600]}]}"#)
        let check = try #require(r.elements.first)
        #expect(r.elements.count == 1)
        #expect(check.point == Point(120, 125))
        #expect(!check.hittable)
        #expect(check.hitTestView == "cover")
        #expect(check.reasons.first?.kind == "covered")
        #expect(check.reasons.first?.rule == "H1")
        #expect(r.touches.first?.hitTestView == "cover")
        #expect(TextRenderer.render(r).contains("element gesture 0: B at (120, 125) not hittable (hit-test view cover): [H1]"))
    }

    @Test func aHiddenAncestorIsTheReason() throws {
        let scene = Scenes.scene("""
            {"id": "P", "class": "UIView", "frame": [0, 0, 390, 400], "hidden": true, "subviews": [
              {"id": "B", "class": "UIButton", "frame": [20, 100, 200, 50]}]}
            """)
        let check = try #require(try Scenes.run(scene, #"{"gestures": [{"tap": {"view": "B"}}]}"#).elements.first)
        #expect(!check.hittable && check.hitTestView == "R")
        #expect(check.reasons.first?.kind == "pruned")
    }

    @Test func elementsAreLeftOutWhenNoGestureNamesOne() throws {
        let r = try Scenes.run(Self.scene, #"{"gestures": [{"tap": [130, 275]}]}"#)
        #expect(r.elements.isEmpty)
        #expect(!String(decoding: ResultEncoder.encode(r), as: UTF8.self).contains("\"elements\""))
        #expect(!TextRenderer.render(r).contains("element"))
    }

    @Test func bothEncodingsWriteTheSameElements() throws {
        let r = try Scenes.run(Self.scene, #"{"gestures": [{"drag": {"from": {"view": "B"}, "to": {"view": "L1"}}}]}"#)
        #expect(r.elements.map(\.view) == ["B", "L1"])
        #expect(r.elements.map(\.gesture) == [0, 0])
        let compact = ResultEncoder.encode(r)
        var w = JSONWriter(indent: 0)
        ResultEncoder.write(r, to: &w)
        #expect(compact == w.bytes)
        let json = String(decoding: compact, as: UTF8.self)
        #expect(json.contains(#""actions":[],"elements":[{"gesture":0,"view":"B","point":[130,275],"hittable":true,"hitTestView":"icon","reasons":[]},"#))
    }
}
