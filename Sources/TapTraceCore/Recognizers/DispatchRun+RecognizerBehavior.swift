/// What each built-in recognizer class does with its touches and timers (GP1–GP13, SV2).
/// A recognizer fails by itself inside its touch methods (the state entry nests under the call);
/// wanting to begin or recognize only sets `wantsToRecognize`: resolution commits it (§5.2).
extension DispatchRun {
    mutating func recognizerTouches(_ g: Int, _ phase: TouchPhase, _ ts: [Int]) {
        let base = info(g).base
        // Continuous recognizers that have begun: changed on moves, ended when lifted (GS1).
        if recognizers[g].state == .began || recognizers[g].state == .changed {
            continueRecognizing(g, phase, ts)
            return
        }
        guard recognizers[g].state == .possible else { return }
        switch phase {
        case .began:
            if recognizers[g].down.isEmpty && recognizers[g].starts.isEmpty { recognizers[g].startTime = now }
            for t in ts {
                recognizers[g].down.append(t)
                recognizers[g].starts[t] = touches[t].location
            }
        case .moved, .stationary:
            break
        case .ended, .cancelled:
            for t in ts { recognizers[g].down.removeAll { $0 == t } }
        }
        if phase == .cancelled { fail(g, "touchCancelled"); return }
        switch base {
        case .tap: tap(g, phase, ts)
        case .longPress: longPress(g, phase, ts)
        case .pan, .scrollViewPan, .screenEdgePan: pan(g, phase, ts)
        case .swipe: swipe(g, phase)
        case .pinch, .rotation: twoFinger(g, phase)
        case .scrollViewDelay: scrollDelay(g, phase)
        }
    }

    mutating func recognizerTimerFired(_ g: Int, _ kind: TimerKind) {
        guard recognizers[g].state == .possible else { return }
        switch kind {
        case .longPress: recognizers[g].wantsToRecognize = true          // GP4: held long enough
        case .tapInterval, .tapDuration, .swipeDuration, .scrollDelay: fail(g, "timeout")   // GP10, GP11, SV2
        }
    }

    // MARK: continuous recognizers after they began

    /// Updates the runtime in place (a copy written back made its arrays copy on write).
    private mutating func continueRecognizing(_ g: Int, _ phase: TouchPhase, _ ts: [Int]) {
        switch phase {
        case .began:
            for t in ts { recognizers[g].down.append(t); recognizers[g].starts[t] = touches[t].location }
        case .moved, .stationary:
            changeState(g, to: .changed, reason: "changed")
        case .ended:
            for t in ts { recognizers[g].down.removeAll { $0 == t } }
            // GP4: a long press ends when a required finger lifts; GP7: a pan when all lift
            // (or fewer than its minimum remain); pinch and rotation below two fingers.
            let remaining = recognizers[g].down.count
            let ends: Bool
            switch info(g).base {
            case .longPress: ends = true
            case .pinch, .rotation: ends = remaining < 2
            default: ends = remaining < max(1, info(g).spec?.minimumNumberOfTouches ?? 1)
            }
            changeState(g, to: ends ? .ended : .changed, reason: ends ? "recognized" : "changed")
        case .cancelled:
            for t in ts { recognizers[g].down.removeAll { $0 == t } }
            changeState(g, to: .cancelled, reason: "touchCancelled")
        }
    }

    /// A change made inside a touch method; its action is sent in resolution (GS2, GS4).
    private mutating func changeState(_ g: Int, to new: RecognizerState, reason: String) {
        transition(g, to: new, reason: reason)
        recognizers[g].pendingActionStates.append(new)
    }

    // MARK: tap (GP8–GP12)

    private mutating func tap(_ g: Int, _ phase: TouchPhase, _ ts: [Int]) {
        // The two numbers read in place: `info(g).spec` copied the whole RecognizerSpec.
        let tapsRequired = index.recognizers[recognizers[g].info].spec?.numberOfTapsRequired ?? 1
        let touchesRequired = index.recognizers[recognizers[g].info].spec?.numberOfTouchesRequired ?? 1
        switch phase {
        case .began:
            cancelTimer(g, .tapInterval)
            recognizers[g].maxTouchesInTap = max(recognizers[g].maxTouchesInTap, recognizers[g].down.count)
            if recognizers[g].down.count > touchesRequired { fail(g, "tooManyTouches"); return }
            for t in ts {
                if let first = recognizers[g].firstTapLocation {
                    if first.distance(to: touches[t].location) > knobs.tapAllowableMovement { fail(g, "movedTooFar"); return }
                } else {
                    recognizers[g].firstTapLocation = touches[t].location
                }
            }
            if !hasTimer(g, .tapDuration) { schedule(g, .tapDuration, after: knobs.tapMaxDuration) }
        case .moved, .stationary:
            for t in ts where movedBeyond(g, t, knobs.tapAllowableMovement) { fail(g, "movedTooFar"); return }
        case .ended:
            guard recognizers[g].down.isEmpty else { return }
            // The tap is complete when its last finger lifts.
            cancelTimer(g, .tapDuration)
            if recognizers[g].maxTouchesInTap < touchesRequired { fail(g, "liftedEarly"); return }
            recognizers[g].tapsCompleted += 1
            recognizers[g].maxTouchesInTap = 0
            recognizers[g].starts = [:]
            if recognizers[g].tapsCompleted >= tapsRequired {
                recognizers[g].wantsToRecognize = true        // GP9: at the lift of the last tap
            } else {
                schedule(g, .tapInterval, after: knobs.tapMaxInterval)   // GP10
            }
        case .cancelled: break
        }
    }

    // MARK: long press (GP1–GP4)

    private mutating func longPress(_ g: Int, _ phase: TouchPhase, _ ts: [Int]) {
        let spec = info(g).spec
        let tapsRequired = spec?.numberOfTapsRequired ?? 0
        let touchesRequired = spec?.numberOfTouchesRequired ?? 1
        let movement = spec?.allowableMovement ?? knobs.longPressAllowableMovement
        switch phase {
        case .began:
            if recognizers[g].tapsCompleted >= tapsRequired, recognizers[g].down.count == touchesRequired,
               !hasTimer(g, .longPress) {
                schedule(g, .longPress, after: spec?.minimumPressDuration ?? knobs.longPressMinimumDuration)
            }
        case .moved, .stationary:
            for t in ts where movedBeyond(g, t, movement) { fail(g, "movedTooFar"); return }   // GP2
        case .ended:
            if recognizers[g].tapsCompleted < tapsRequired {
                if recognizers[g].down.isEmpty { recognizers[g].tapsCompleted += 1; recognizers[g].starts = [:] }
            } else {
                fail(g, "liftedEarly")
            }
        case .cancelled: break
        }
    }

    // MARK: pan and screen-edge pan (GP5–GP7)

    private mutating func pan(_ g: Int, _ phase: TouchPhase, _ ts: [Int]) {
        let spec = info(g).spec
        let minimum = spec?.minimumNumberOfTouches ?? 1
        let maximum = spec?.maximumNumberOfTouches ?? Int.max
        switch phase {
        case .began:
            if recognizers[g].down.count > maximum { fail(g, "tooManyTouches"); return }
            if info(g).base == .screenEdgePan {
                for t in ts where !startsAtEdge(g, t) { fail(g, "notAtEdge"); return }
            }
        case .moved, .stationary:
            guard recognizers[g].down.count >= minimum else { return }
            if centroidTranslation(g) >= knobs.panHysteresis { recognizers[g].wantsToRecognize = true }
        case .ended:
            if recognizers[g].down.isEmpty { fail(g, "liftedEarly") }          // GP7
        case .cancelled: break
        }
    }

    /// UIScreenEdgePanGestureRecognizer: the touch must start within `screenEdgeMargin` of one
    /// of its `edges` of the window.
    private func startsAtEdge(_ g: Int, _ t: Int) -> Bool {
        guard let w = touches[t].window else { return false }
        let p = index.geometry[w].convertFromSuperview(touches[t].location)
        let b = index.geometry[w].bounds
        let m = knobs.screenEdgeMargin
        for edge in info(g).spec?.edges ?? [] {
            switch edge {
            case .left: if p.x - b.minX <= m { return true }
            case .right: if b.maxX - p.x <= m { return true }
            case .top: if p.y - b.minY <= m { return true }
            case .bottom: if b.maxY - p.y <= m { return true }
            case .all: if p.x - b.minX <= m || b.maxX - p.x <= m || p.y - b.minY <= m || b.maxY - p.y <= m { return true }
            }
        }
        return false
    }

    // MARK: swipe

    private mutating func swipe(_ g: Int, _ phase: TouchPhase) {
        let spec = info(g).spec
        let touchesRequired = spec?.numberOfTouchesRequired ?? 1
        let directions = spec?.direction ?? [.right]
        switch phase {
        case .began:
            if recognizers[g].down.count > touchesRequired { fail(g, "tooManyTouches"); return }
            if !hasTimer(g, .swipeDuration) { schedule(g, .swipeDuration, after: knobs.swipeMaximumDuration) }
        case .moved, .stationary:
            guard recognizers[g].down.count == touchesRequired else { return }
            let d = centroidDelta(g)
            var deviatesInAll = true
            for dir in directions {
                let (primary, secondary): (Double, Double)
                switch dir {
                case .right: (primary, secondary) = (d.x, abs(d.y))
                case .left: (primary, secondary) = (-d.x, abs(d.y))
                case .down: (primary, secondary) = (d.y, abs(d.x))
                case .up: (primary, secondary) = (-d.y, abs(d.x))
                }
                if secondary <= knobs.swipeMaximumDeviation {
                    deviatesInAll = false
                    if primary >= knobs.swipeMinimumDistance { recognizers[g].wantsToRecognize = true; return }
                }
            }
            if deviatesInAll { fail(g, "movedTooFar") }
        case .ended:
            if recognizers[g].down.isEmpty { fail(g, "liftedEarly") }
        case .cancelled: break
        }
    }

    // MARK: pinch and rotation

    private mutating func twoFinger(_ g: Int, _ phase: TouchPhase) {
        let r = recognizers[g]
        switch phase {
        case .began:
            if r.down.count == 2 {
                let a = touches[r.down[0]].location, b = touches[r.down[1]].location
                recognizers[g].startSpan = a.distance(to: b)
                recognizers[g].startAngle = atan2Approx(b.y - a.y, b.x - a.x)
            }
        case .moved, .stationary:
            guard r.down.count >= 2, let span = r.startSpan, let angle = r.startAngle else { return }
            let a = touches[r.down[0]].location, b = touches[r.down[1]].location
            if info(g).base == .pinch {
                if abs(a.distance(to: b) - span) >= knobs.pinchHysteresis { recognizers[g].wantsToRecognize = true }
            } else {
                var delta = abs(atan2Approx(b.y - a.y, b.x - a.x) - angle)
                if delta > Double.pi { delta = 2 * Double.pi - delta }
                if delta >= knobs.rotationHysteresis { recognizers[g].wantsToRecognize = true }
            }
        case .ended:
            if r.down.isEmpty { fail(g, "liftedEarly") }
        case .cancelled: break
        }
    }

    // MARK: UIScrollView's touch-delay recognizer (SV2)

    private mutating func scrollDelay(_ g: Int, _ phase: TouchPhase) {
        switch phase {
        case .began:
            if !hasTimer(g, .scrollDelay) { schedule(g, .scrollDelay, after: knobs.scrollDelay) }
        case .ended:
            fail(g, "liftedEarly")                  // SV2, SV7: fails at once when the touch ends
        case .moved, .stationary, .cancelled: break
        }
    }

    // MARK: geometry of a recognizer's touches

    private func movedBeyond(_ g: Int, _ t: Int, _ limit: Double) -> Bool {
        guard let start = recognizers[g].starts[t] else { return false }
        return start.distance(to: touches[t].location) > limit
    }

    private func centroidDelta(_ g: Int) -> Point {
        let r = recognizers[g]
        let held = r.down.filter { r.starts[$0] != nil }
        guard !held.isEmpty else { return .zero }
        var dx = 0.0, dy = 0.0
        for t in held {
            dx += touches[t].location.x - r.starts[t]!.x
            dy += touches[t].location.y - r.starts[t]!.y
        }
        return Point(dx / Double(held.count), dy / Double(held.count))
    }

    private func centroidTranslation(_ g: Int) -> Double {
        let d = centroidDelta(g)
        return (d.x * d.x + d.y * d.y).squareRoot()
    }
}

/// atan2 without Foundation: the engine has no dependency (brief). Accurate to ~1e-9 rad,
/// far below any rotation threshold.
func atan2Approx(_ y: Double, _ x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    func atanUnit(_ z: Double) -> Double {
        // atan for |z| <= 1 by argument halving and a Taylor series.
        var z = z
        var scale = 1.0
        for _ in 0..<4 {
            z = z / (1 + (1 + z * z).squareRoot())
            scale *= 2
        }
        var term = z, sum = z
        let z2 = z * z
        var n = 1.0
        for _ in 0..<12 {
            term *= -z2
            n += 2
            sum += term / n
        }
        return sum * scale
    }
    let pi = Double.pi
    if abs(x) >= abs(y) {
        let a = atanUnit(y / x)
        if x > 0 { return a }
        return y >= 0 ? a + pi : a - pi
    } else {
        let a = pi / 2 - atanUnit(x / y)
        return y > 0 ? a : a - pi
    }
}
