/// The rules of press, motion, remote-control and responder records (contract §2.1): press
/// ids as touch ids (one `began`, any `changed`, one `ended` or `cancelled`, never reused), each
/// phase repeating the press's type and key; shakes that begin, then end or are cancelled,
/// without overlapping; `become`/`resign` naming a view or view controller of the scene.
extension TouchSequenceValidator {
    /// A non-touch record of the explicit events, at its time, with its index in `events`.
    struct NonTouchItem {
        var t: Double
        var event: NonTouchEvent
        var index: Int
    }

    /// Checks the records' phases in time order (sorting `items` so, input order among equal
    /// times, which were reported already).
    static func checkNonTouch(_ items: inout [NonTouchItem], at base: String, issues: inout IssueList) {
        items.sort { $0.t != $1.t ? $0.t < $1.t : $0.index < $1.index }
        enum PressLife { case down(began: PressChange, at: String), ended(began: String, at: String) }
        var presses: [String: PressLife] = [:]
        var shake: String?
        for item in items {
            let record = base.pointer("events").pointer(item.index)
            switch item.event {
            case .presses(let list):
                if list.isEmpty { issues.add(record.pointer("presses"), "a presses record changes at least one press") }
                var inRecord = Set<String>()
                for (j, p) in list.enumerated() {
                    let at = record.pointer("presses").pointer(j)
                    guard inRecord.insert(p.id).inserted else {
                        issues.add(at, "press \"\(p.id)\" appears twice in one record")
                        continue
                    }
                    // What a document cannot say (the decoder refuses it), in sequences built in code.
                    if p.phase == .stationary {
                        issues.add(at.pointer("phase"), "must be began, changed, ended or cancelled (stationary is UIKit's, not an input)")
                        continue
                    }
                    if p.type == .keyboard, p.key == nil {
                        issues.add(at, "a keyboard press needs a key {characters, charactersIgnoringModifiers, keyCode, modifierFlags}")
                        continue
                    }
                    if p.type != .keyboard, p.key != nil {
                        issues.add(at.pointer("key"), "only a keyboard press has a key (this one is \(p.type.rawValue))")
                        continue
                    }
                    switch (p.phase, presses[p.id]) {
                    case (.began, nil):
                        presses[p.id] = .down(began: p, at: at)
                    case (.began, .down(_, let s)?), (.began, .ended(let s, _)?):
                        issues.add(at, "press \"\(p.id)\" begins twice (it began at \(s)); a key pressed again needs a new id")
                    case (_, nil):
                        issues.add(at, "press \"\(p.id)\" is \(p.phase.rawValue) before it began")
                    case (_, .ended(_, let s)?):
                        issues.add(at, "press \"\(p.id)\" is \(p.phase.rawValue) after it ended at \(s)")
                    case (let phase, .down(let began, let s)?):
                        if p.type != began.type {
                            issues.add(at.pointer("type"), "press \"\(p.id)\" began as \(began.type.rawValue) at \(s): every phase repeats the press's type")
                        } else if p.key != began.key {
                            issues.add(at.pointer("key"), "press \"\(p.id)\" began with another key at \(s): every phase repeats the press's key")
                        }
                        if phase.isTerminal { presses[p.id] = .ended(began: s, at: at) }
                    }
                }
            case .motion(let m):
                let at = record.pointer("motion")
                switch (m.phase, shake) {
                case (.began, nil): shake = at
                case (.began, let s?):
                    issues.add(at, "a shake begins while the one that began at \(s) goes on: shakes do not overlap")
                case (_, nil):
                    issues.add(at, "a shake is \(m.phase.rawValue) while none goes on: a shake's \"began\" comes first")
                case (_, _?): shake = nil
                }
            case .remoteControl:
                break
            case .responder(let call):
                if call.receiver.isEmpty {
                    issues.add(record.pointer("responder").pointer(call.name), "must name a view or view controller")
                }
            }
        }
        let stillDown = presses.filter { if case .down = $0.value { return true } else { return false } }
        for (id, life) in stillDown.sorted(by: { $0.key < $1.key }) {
            if case .down(_, let s) = life {
                issues.add(s, "press \"\(id)\" never ends: add an \"ended\" or \"cancelled\" change")
            }
        }
        if let shake {
            issues.add(shake, "this shake never ends: add a motion record with phase \"ended\" or \"cancelled\"")
        }
    }

    /// The touch records (sorted by time) and the non-touch ones merged by time. A record
    /// carries one kind, so a gesture's touches at the time of a non-touch record cannot join
    /// it: reported at the gesture (`gestures[k]` is the first gesture of touch record k, when
    /// one is; explicit records at equal times were reported as times that do not increase).
    static func merge(_ touches: [TouchRecord], _ items: [NonTouchItem], gestures: [Int?], at base: String,
                      issues: inout IssueList) -> [TouchRecord] {
        var out: [TouchRecord] = []
        out.reserveCapacity(touches.count + items.count)
        var k = 0
        for (r, record) in touches.enumerated() {
            while k < items.count, items[k].t <= record.t {
                if items[k].t == record.t, r < gestures.count, let g = gestures[r] {
                    issues.add(base.pointer("gestures").pointer(g),
                               "touches at t = \(NumberText.format(record.t)) meet the \(kind(items[k].event)) record at "
                               + base.pointer("events").pointer(items[k].index)
                               + ": a record carries one kind; start the gesture at another time")
                }
                out.append(TouchRecord(t: items[k].t, touches: [], nonTouch: items[k].event))
                k += 1
            }
            out.append(record)
        }
        for item in items[k...] { out.append(TouchRecord(t: item.t, touches: [], nonTouch: item.event)) }
        return out
    }

    /// The document key of a non-touch record.
    static func kind(_ event: NonTouchEvent) -> String {
        switch event {
        case .presses: return "presses"
        case .motion: return "motion"
        case .remoteControl: return "remoteControl"
        case .responder: return "responder"
        }
    }

    /// `become`/`resign` records name a view or a view controller of the scene (contract §2.1):
    /// an issue at `<base>/events/<i>/responder/become` (or `…/resign`) for each that does not.
    /// Checked once the scene is known (`TapTrace.dispatch(_:touches:records:…)`).
    public static func checkResponders(_ seq: TouchSequence, in directory: ObjectDirectory, at base: String = "") -> IssueList {
        var issues = IssueList()
        for (i, e) in seq.events.enumerated() {
            guard case .responder(let call)? = e.nonTouch else { continue }
            let at = base.pointer("events").pointer(i).pointer("responder").pointer(call.name)
            let id = call.receiver
            switch directory[id] {
            case .view?, .viewController?: break
            case nil: issues.add(at, "\"\(id)\" is not an id in this scene")
            case .application?, .appDelegate?:
                issues.add(at, "\"\(id)\" is the application\(directory[id] == .appDelegate ? "'s delegate" : ""); \(call.name) names a view or view controller")
            case .recognizer?, .builtInRecognizer?:
                issues.add(at, "\"\(id)\" is a gesture recognizer, not a responder; \(call.name) names a view or view controller")
            case .delegateObject?:
                issues.add(at, "\"\(id)\" is a recognizer's delegate object, not a responder; \(call.name) names a view or view controller")
            }
        }
        return issues
    }
}
