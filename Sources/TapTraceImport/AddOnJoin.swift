import TapTraceCore

/// Joins the debugger's add-ons to the views of a draft by address, before ids are final.
///
/// Every object it adds is named `Class-0xADDRESS` (made unique if taken) and every reference
/// it writes (recognizer and control targets, `presentedBy`, `requireToFail`) uses those
/// provisional ids or the views' own, so that `ImportIdentity` renames references with the
/// objects. Only the scene and the warnings of the draft change.
///
/// - Controllers (`_printHierarchy`): a controller whose view's address is a view of the dump
///   becomes that view's `viewController` (R2: the view's next responder; R3: the controller's
///   next is its presenter when printed with `+`, else its view's superview). Child
///   controllers need nothing more: their views are in the parent's tree (R5).
/// - Recognizers: appended to the view whose address their `view = <…>` gives, in the order
///   printed (G3: array order), once per address (a recognizer printed at the top and inside a
///   must-fail set is one); those known only from a must-fail set come after the others.
///   `must-fail = {B}` on A gives A `requireToFail: [B]`; `must-fail-for = {B}` on A gives B
///   `requireToFail: [A]` (GM6, GM8). A scroll view's own delay and pan recognizers are SV1's,
///   which the engine builds: never added twice (see `RecognizerClasses`).
/// - Control targets: `ControlTarget`s of the control the question named by address, in the
///   order the actions were answered (K8).
///
/// A target object that is not a view or a joined controller of the scene cannot be named by
/// an id (`SceneValidator` requires targets to be objects of the scene): it is kept as a nil
/// target with a warning naming its class and address. For a recognizer a nil target sends
/// nothing (A7), which is what the scene can tell of an action on an object it does not hold;
/// for a control it walks the responder chain (A2), which the warning says.
struct AddOnJoin {
    var draft: ImportDraft
    /// Address key → the first view printed with that address.
    private var viewByAddress: [String: Int] = [:]
    /// Address key → provisional id of the controller joined at that address.
    private var controllerByAddress: [String: String] = [:]
    /// Every id of the scene, the engine's derived ones included.
    private var usedIds: Set<String> = ["UIApplication"]

    init(draft: ImportDraft) {
        self.draft = draft
        for v in draft.scene.views.indices {
            let view = draft.scene.views[v]
            if let key = AddressKey.of(view.address), viewByAddress[key] == nil { viewByAddress[key] = v }
            usedIds.insert(view.id)
            if view.base.isScrollView { usedIds.insert(view.id + ".delay"); usedIds.insert(view.id + ".pan") }
            if let vc = view.viewController { usedIds.insert(vc.id) }
            for gr in view.gestureRecognizers ?? [] { usedIds.insert(gr.id) }
        }
    }

    private mutating func uniqueId(_ candidate: String) -> String {
        var id = candidate
        var n = 2
        while usedIds.contains(id) {
            id = "\(candidate)-\(n)"
            n += 1
        }
        usedIds.insert(id)
        return id
    }

    private func view(at address: String?) -> Int? {
        AddressKey.of(address).flatMap { viewByAddress[$0] }
    }

    /// The id of the view or joined controller at `ref`'s address.
    private func objectId(_ ref: ObjectReference) -> String? {
        guard let key = AddressKey.of(ref.address) else { return nil }
        if let id = controllerByAddress[key] { return id }
        return viewByAddress[key].map { draft.scene.views[$0].id }
    }

    // MARK: controllers

    mutating func addControllers(_ lines: [ControllerLine]) {
        guard !lines.isEmpty else { return }
        var joined = [String?](repeating: nil, count: lines.count)
        var seen: Set<String> = []
        for (k, line) in lines.enumerated() {
            let name = line.controller.text
            guard let key = AddressKey.of(line.controller.address) else {
                draft.warnings.add("view controllers without an address (pointers purged) cannot be joined to views", line.controller.className, .notice)
                continue
            }
            // Printed twice (two _printHierarchy pastes): the first counts.
            guard seen.insert(key).inserted else { continue }
            guard let viewRef = line.view else {
                draft.warnings.add("view controllers whose view is not loaded own no view", name, .notice)
                continue
            }
            let viewText = viewRef.address.map { "view \($0)" } ?? "view without an address"
            guard let v = view(at: viewRef.address) else {
                if line.inWindow {
                    draft.warnings.add("view controllers whose view is not in the dump (the responder chain misses them)", "\(name) (\(viewText))", .behaviour)
                } else {
                    draft.warnings.add("view controllers not in the window (covered by a push, another tab or a presentation) and whose view is not in the dump", "\(name) (\(viewText))", .notice)
                }
                continue
            }
            if !line.inWindow {
                draft.warnings.add("view controllers printed as not in the window whose view is in the dump", "\(name) (\(viewText))", .notice)
            }
            if draft.scene.views[v].superview == nil {
                // The validator's rule: a window is never a controller's view.
                draft.warnings.add("view controllers whose view is a window, not joined (a root view controller's view is the window's subview)", "\(name) (\(viewText))", .behaviour)
                continue
            }
            if let other = draft.scene.views[v].viewController {
                draft.warnings.add("views claimed by two view controllers; the first is kept", "\(name) (\(viewText), already \(other.className))", .behaviour)
                continue
            }
            if viewRef.className != draft.scene.views[v].className {
                draft.warnings.add("view controllers whose view's class differs from the dump's line at that address (joined by the address)", "\(name) (\(viewRef.text) is \(draft.scene.views[v].className) in the dump)", .notice)
            }
            let id = uniqueId("\(line.controller.className)-\(line.controller.address!)")
            draft.scene.views[v].viewController = ViewControllerSpec(id: id, className: line.controller.className)
            controllerByAddress[key] = id
            joined[k] = id
        }
        // R3: a presented controller's next responder is the one that presented it, once both
        // are in the scene.
        for (k, line) in lines.enumerated() where line.presented {
            guard joined[k] != nil, let p = line.parent, let v = view(at: line.view?.address) else { continue }
            if let presenter = joined[p] {
                draft.scene.views[v].viewController?.presentedBy = presenter
            } else {
                draft.warnings.add("presented view controllers whose presenter is not in the scene: their next responder is their view's superview instead (R3)", "\(line.controller.text) (presented by \(lines[p].controller.text))", .behaviour)
            }
        }
        if lines.contains(where: { $0.state == "appearing" || $0.state == "disappearing" }) {
            draft.warnings.note("view controllers in transition (appearing, disappearing): the dump was taken during a push, pop or presentation", .notice)
        }
    }

    // MARK: recognizers

    /// What an address of a recognizer became.
    private enum Joined {
        case recognizer(view: Int, index: Int)
        case builtIn(id: String)
        case skipped
    }

    mutating func addRecognizers(_ list: [RecognizerDescription]) {
        guard !list.isEmpty else { return }
        // One description per address: top-level ones in printed order, then those known only
        // from must-fail sets; and the failure requirements between them.
        var order: [RecognizerDescription] = []
        var position: [String: Int] = [:]
        var requirements: [(waits: RecognizerDescription, forFailureOf: RecognizerDescription)] = []
        for d in list {
            guard let key = AddressKey.of(d.recognizer.address) else {
                draft.warnings.add("recognizers without an address (pointers purged) cannot be joined to views", d.recognizer.className, .notice)
                continue
            }
            if position[key] == nil { position[key] = order.count; order.append(d) }
        }
        var stack = list.reversed().map { $0 }
        while let d = stack.popLast() {
            for m in d.mustFail { requirements.append((d, m)) }
            for m in d.mustFailFor { requirements.append((m, d)) }
            let nested = d.mustFail + d.mustFailFor
            for m in nested {
                if let key = AddressKey.of(m.recognizer.address), position[key] == nil {
                    position[key] = order.count
                    order.append(m)
                    draft.warnings.add("recognizers known only from another's must-fail set, put after the others on their view (G3: their place in the array is not printed)", m.recognizer.text, .notice)
                }
            }
            stack.append(contentsOf: nested.reversed())
        }

        var joined: [String: Joined] = [:]
        var described: [Int] = []
        for d in order {
            let key = AddressKey.of(d.recognizer.address)!
            joined[key] = add(d, described: &described)
        }
        // GM6: failure requirements, once every recognizer has its id.
        var done: Set<[String]> = []
        for (a, b) in requirements {
            guard let ka = AddressKey.of(a.recognizer.address), let kb = AddressKey.of(b.recognizer.address), ka != kb,
                  done.insert([ka, kb]).inserted else { continue }
            let pair = "\(a.recognizer.text) waits for \(b.recognizer.text)"
            switch (joined[ka], joined[kb]) {
            case (.recognizer(let v, let i)?, .recognizer(let w, let j)?):
                let other = draft.scene.views[w].gestureRecognizers![j].id
                var list = draft.scene.views[v].gestureRecognizers!
                if !(list[i].requireToFail ?? []).contains(other) { list[i].requireToFail = (list[i].requireToFail ?? []) + [other] }
                draft.scene.views[v].gestureRecognizers = list
            case (.builtIn?, _), (_, .builtIn?):
                draft.warnings.add("failure requirements with a scroll view's own recognizers are not modelled (SV1 builds them without any)", pair, .behaviour)
            default:
                draft.warnings.add("failure requirements with recognizers not in the scene dropped", pair, .notice)
            }
        }
        // The views whose recognizers were described: no longer "undescribed" (ImportDraft).
        for v in described where draft.scene.views[v].gestureRecognizers == nil {
            draft.scene.views[v].gestureRecognizers = []
        }
    }

    private mutating func add(_ d: RecognizerDescription, described: inout [Int]) -> Joined {
        let name = d.recognizer.text
        guard let v = view(at: d.view?.address) else {
            draft.warnings.add("recognizers whose view is not in the dump", "\(name) (view \(d.view?.text ?? "not printed"))", .notice)
            return .skipped
        }
        if !described.contains(v) { described.append(v) }
        if let state = d.state, state != "Possible" {
            draft.warnings.add("recognizers not in state Possible (the dump was taken mid-gesture); imported as Possible", "\(name) (\(state))", .notice)
        }
        let base: RecognizerBase
        switch RecognizerClasses.kind(of: d.recognizer.className) {
        case .unknown:
            draft.warnings.add("recognizers of classes whose name implies no base (tap, long press, pan, swipe, pinch, rotation, edge pan), skipped", name, .behaviour)
            return .skipped
        case .scrollViewBuiltIn(let b):
            return scrollViewBuiltIn(d, b, view: v)
        case .base(let b):
            base = b
        }
        var spec = RecognizerSpec(id: uniqueId("\(d.recognizer.className)-\(d.recognizer.address ?? "")"), className: d.recognizer.className, base: base)
        spec.explicitBase = d.recognizer.className != base.rawValue
        spec.enabled = d.enabled
        spec.cancelsTouchesInView = d.cancelsTouchesInView
        spec.delaysTouchesBegan = d.delaysTouchesBegan
        spec.delaysTouchesEnded = d.delaysTouchesEnded
        // Only what the base has (the validator's table), in the values UIKit allows.
        func fits(_ field: String, _ present: Bool, _ bases: [RecognizerBase], _ valid: Bool = true) -> Bool {
            guard present else { return false }
            if bases.contains(base), valid { return true }
            draft.warnings.add("recognizer fields that do not fit the base they were imported as, ignored", "\(field) of \(name) (\(base.rawValue))", .ignored)
            return false
        }
        if fits("numberOfTapsRequired", d.numberOfTapsRequired != nil, [.tap, .longPress], base != .tap || (d.numberOfTapsRequired ?? 1) > 0) {
            spec.numberOfTapsRequired = d.numberOfTapsRequired
        }
        if fits("numberOfTouchesRequired", d.numberOfTouchesRequired != nil, [.tap, .longPress, .swipe], (d.numberOfTouchesRequired ?? 1) > 0) {
            spec.numberOfTouchesRequired = d.numberOfTouchesRequired
        }
        if fits("minimumPressDuration", d.minimumPressDuration != nil, [.longPress]) { spec.minimumPressDuration = d.minimumPressDuration }
        if fits("allowableMovement", d.allowableMovement != nil, [.longPress]) { spec.allowableMovement = d.allowableMovement }
        if fits("minimumNumberOfTouches", d.minimumNumberOfTouches != nil, [.pan, .screenEdgePan], (d.minimumNumberOfTouches ?? 1) > 0) {
            spec.minimumNumberOfTouches = d.minimumNumberOfTouches
        }
        if fits("maximumNumberOfTouches", d.maximumNumberOfTouches != nil, [.pan, .screenEdgePan],
                (d.maximumNumberOfTouches ?? 1) >= max(1, spec.minimumNumberOfTouches ?? 1)) {
            spec.maximumNumberOfTouches = d.maximumNumberOfTouches
            spec.maximumNumberOfTouchesGiven = true
        }
        if fits("direction", d.direction != nil, [.swipe]) { spec.direction = d.direction }
        for field in d.ignored {
            draft.warnings.add("recognizer fields ignored (not modelled)", field, .ignored)
        }
        for t in d.targets {
            guard ControlTargetsParser.isSelector(t.action) else {
                draft.warnings.add("recognizer actions that are not selectors, dropped", "\(t.action) of \(name)", .notice)
                continue
            }
            if let id = objectId(t.target) {
                spec.targets.append(RecognizerTarget(target: id, action: t.action))
            } else {
                // A7: a nil target sends nothing; the action's name stays in the scene.
                spec.targets.append(RecognizerTarget(target: nil, action: t.action))
                draft.warnings.add("recognizer targets not in the scene, kept as nil targets (A7: their action is not sent)", "\(t.target.text) (\(t.action) of \(name))", .behaviour)
            }
        }
        var list = draft.scene.views[v].gestureRecognizers ?? []
        list.append(spec)
        draft.scene.views[v].gestureRecognizers = list
        return .recognizer(view: v, index: list.count - 1)
    }

    /// SV1: the scroll view's own delay and pan recognizers are built by the engine; what the
    /// dump says of them goes to the scroll view's settings (SV3: a disabled delay recognizer is
    /// `delaysContentTouches = NO`; a disabled pan is `scrollEnabled = NO`). A view that carries
    /// them is a UIScrollView even when its line did not show it.
    private mutating func scrollViewBuiltIn(_ d: RecognizerDescription, _ b: RecognizerBase, view v: Int) -> Joined {
        if !draft.scene.views[v].base.isScrollView {
            let id = draft.scene.views[v].id
            guard draft.scene.views[v].base == .UIView, draft.scene.views[v].superview != nil,
                  !usedIds.contains(id + ".delay"), !usedIds.contains(id + ".pan") else {
                draft.warnings.add("a scroll view's own recognizers on views that are not scroll views, skipped", "\(d.recognizer.text) (on \(draft.scene.views[v].className))", .behaviour)
                return .skipped
            }
            draft.scene.views[v].base = .UIScrollView
            draft.scene.views[v].explicitBase = draft.scene.views[v].className != ViewBase.UIScrollView.rawValue
            usedIds.insert(id + ".delay")
            usedIds.insert(id + ".pan")
            draft.warnings.add("views imported as UIScrollView because they carry a scroll view's own recognizers (SV1)", view: v, "", .behaviour)
        }
        if d.enabled == false {
            var s = draft.scene.views[v].scrollView ?? ScrollViewSpec()
            if b == .scrollViewDelay { s.delaysContentTouches = false } else { s.scrollEnabled = false }
            draft.scene.views[v].scrollView = s
        }
        return .builtIn(id: draft.scene.views[v].id + (b == .scrollViewDelay ? ".delay" : ".pan"))
    }

    // MARK: control targets

    private struct Control {
        var address: String
        var offset: Int
        var allControlEvents: UInt32?
        var targets: [ObjectReference] = []
        var actions: [(target: ControlTargetAnswer.TargetArgument, events: ControlTargetAnswer.EventsArgument, selectors: [String])] = []
    }

    mutating func addControlTargets(_ answers: [ControlTargetAnswer]) {
        guard !answers.isEmpty else { return }
        var controls: [Control] = []
        var controlIndex: [String: Int] = [:]
        /// Objects answered by a question that named one (`[[#0x… allTargets] allObjects][0]`),
        /// by the question's expression, for a later `actionsForTarget:` that repeats it.
        var answered: [String: ObjectReference] = [:]
        for a in answers {
            if let e = a.expression, a.objects.count == 1 { answered[e] = a.objects[0] }
            let line = src.line(of: a.offset)
            let key: String
            switch a.receiver {
            case .none:
                draft.warnings.add("control target answers without the command that asked them cannot be joined (an answer does not say which control it is about)", "line \(line)", .behaviour)
                continue
            case .named(let name):
                draft.warnings.add("control target answers about a control named by a variable, not by its address, cannot be joined: ask with the address, like `po [(UIButton *)0x7f… allTargets]`", "\(name) (line \(a.commandLine ?? line))", .behaviour)
                continue
            case .address(let address):
                key = AddressKey.of(address)!
                if controlIndex[key] == nil {
                    controlIndex[key] = controls.count
                    controls.append(Control(address: address, offset: a.offset))
                }
            }
            let c = controlIndex[key]!
            switch a.question {
            case .allTargets where a.integer == nil && a.selectors.isEmpty:
                for o in a.objects where !controls[c].targets.contains(where: { AddressKey.of($0.address) == AddressKey.of(o.address) && $0.className == o.className }) {
                    controls[c].targets.append(o)
                }
            case .allControlEvents where a.integer != nil:
                controls[c].allControlEvents = a.integer
            case .actions(let target, let events) where a.objects.isEmpty && a.integer == nil:
                var t = target
                if case .expression(let e) = target, let o = answered[e] {
                    t = o.address.map { .address($0) } ?? target
                    if !controls[c].targets.contains(where: { AddressKey.of($0.address) == AddressKey.of(o.address) }) { controls[c].targets.append(o) }
                }
                if !a.selectors.isEmpty { controls[c].actions.append((t, events, a.selectors)) }
            default:
                draft.warnings.add("control target answers that do not fit their question, ignored", "line \(line)", .notice)
            }
        }
        for control in controls { join(control) }
    }

    private var src: SourceText { draft.src }

    private mutating func join(_ control: Control) {
        guard let v = view(at: control.address) else {
            draft.warnings.add("control target answers about controls not in the dump", control.address, .notice)
            return
        }
        if !draft.scene.views[v].base.isControl {
            // Only a UIControl answers allTargets.
            guard draft.scene.views[v].base == .UIView else {
                draft.warnings.add("control target answers about views that are not controls, ignored", view: v, "", .behaviour)
                return
            }
            draft.scene.views[v].base = .UIControl
            draft.scene.views[v].explicitBase = draft.scene.views[v].className != ViewBase.UIControl.rawValue
            draft.warnings.add("views imported as UIControl because they answered allTargets", view: v, "", .behaviour)
        }
        let base = draft.scene.views[v].base
        let controlName = "\(draft.scene.views[v].className) \(control.address)"
        var entries = draft.scene.views[v].targets ?? []
        var asked: Set<String> = []
        for action in control.actions {
            // The events.
            var events: [ControlEvent] = []
            if case .mask(let m) = action.events, m != 0 { events = ControlEvent.events(in: m) }
            if events.isEmpty, let all = control.allControlEvents, all != 0 {
                events = ControlEvent.events(in: all)
                if events.count > 1 {
                    draft.warnings.add("control actions asked for any event (forControlEvent:0) given every event of allControlEvents, which may be more than they were added for", "\(action.selectors.joined(separator: ", ")) of \(controlName)", .notice)
                }
            }
            if events.isEmpty {
                let usual = AddOnJoin.usualEvent(of: base)
                events = [usual]
                draft.warnings.add("control actions whose event the paste does not give (forControlEvent:0 asks for any event; allControlEvents was not asked), imported for the control's usual event", "\(action.selectors.joined(separator: ", ")) of \(controlName) (\(usual.rawValue))", .behaviour)
            }
            // The target.
            var target: String?
            switch action.target {
            case .null:
                target = nil  // A2: added with a nil target (allTargets lists it as NSNull).
                asked.insert(AddOnJoin.nullKey)
            case .address(let a):
                asked.insert(AddressKey.of(a) ?? a)
                let ref = control.targets.first { AddressKey.of($0.address) == AddressKey.of(a) } ?? ObjectReference(className: "object", address: a, offset: control.offset)
                target = objectId(ref)
                if target == nil {
                    draft.warnings.add("control targets not in the scene, imported as nil targets (A2: the action walks the responder chain instead of going to them)", "\(ref.text) (\(action.selectors.joined(separator: ", ")) of \(controlName))", .behaviour)
                }
            case .expression(let e):
                target = nil
                draft.warnings.add("control actions whose target the paste does not name (an expression not answered before), imported as nil targets (A2)", "\(e) (\(action.selectors.joined(separator: ", ")) of \(controlName))", .behaviour)
            }
            for selector in action.selectors {
                let entry = ControlTarget(events: events, target: target, action: selector)
                if !entries.contains(entry) { entries.append(entry) }
            }
        }
        for t in control.targets where !asked.contains(AddOnJoin.isNull(t) ? AddOnJoin.nullKey : AddressKey.of(t.address) ?? "") {
            draft.warnings.add("control targets whose actions were not asked (`po [control actionsForTarget:(id)0x… forControlEvent:0]`), not imported", "\(t.text) of \(controlName)", .notice)
        }
        if !entries.isEmpty { draft.scene.views[v].targets = entries }
    }

    private static let nullKey = "<null>"

    /// `<null>` / `<NSNull: 0x…>`: how allTargets lists the nil target of nil-targeted actions.
    private static func isNull(_ ref: ObjectReference) -> Bool { ref.className == "null" || ref.className == "NSNull" }

    /// The event a control's actions are most often added for, when the paste does not say.
    static func usualEvent(of base: ViewBase) -> ControlEvent {
        switch base {
        case .UISwitch, .UISlider, .UISegmentedControl, .UIStepper, .UIPageControl: return .valueChanged
        case .UITextField: return .editingChanged
        default: return .touchUpInside
        }
    }
}
