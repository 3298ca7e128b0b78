/// Shakes (M1–M3) and remote-control events (RC1–RC3): delivered to the key responder resolved
/// at each record's own time, then up the chain by UIResponder's default implementations.
extension DispatchRun {
    /// What climbs the chain: a shake's phase, or a remote-control subtype.
    enum ChainMessage {
        case motion(MotionPhase)
        case remoteControl(RemoteControlSubtype)

        var selector: UIKitSelector {
            switch self {
            case .motion(.began): return .motionBegan
            case .motion(.ended): return .motionEnded
            case .motion(.cancelled): return .motionCancelled
            case .remoteControl: return .remoteControlReceived
            }
        }

        /// `UIEvent.EventSubtype`'s Swift name (§5.1).
        var subtypeName: StaticString {
            switch self {
            case .motion: return "motionShake"
            case .remoteControl(let s):
                switch s {
                case .play: return "remoteControlPlay"
                case .pause: return "remoteControlPause"
                case .stop: return "remoteControlStop"
                case .togglePlayPause: return "remoteControlTogglePlayPause"
                case .nextTrack: return "remoteControlNextTrack"
                case .previousTrack: return "remoteControlPreviousTrack"
                case .beginSeekingBackward: return "remoteControlBeginSeekingBackward"
                case .endSeekingBackward: return "remoteControlEndSeekingBackward"
                case .beginSeekingForward: return "remoteControlBeginSeekingForward"
                case .endSeekingForward: return "remoteControlEndSeekingForward"
                }
            }
        }
    }

    mutating func processMotion(_ change: MotionChange) {
        // N6: one event per shake, from began to its end.
        let event: Int
        if change.phase == .began || nonTouch.shakeEvent == nil {
            sequenceNumber += 1
            event = sequenceNumber
            nonTouch.shakeEvent = event
        } else {
            event = nonTouch.shakeEvent!
        }
        if change.phase != .began { nonTouch.shakeEvent = nil }
        var entry = NonTouchSummary.Delivery(t: now, phase: change.phase, subtype: change.subtype.rawValue, responder: nil,
                                             source: nil, chain: [], delivered: [], handledBy: nil)
        if let (r, source) = keyResponder() {                    // M2: resolved at each record's time
            keyResponderMarker("E\(event)", r, source, recognizers: nil)
            let (delivered, handledBy) = deliverUpChain(.motion(change.phase), from: r, event: event)
            entry.responder = index.ref(r).id
            entry.source = source
            entry.chain = chainIDs(chain(from: r))
            entry.delivered = chainIDs(delivered)
            entry.handledBy = handledBy.map { index.ref($0).id }
        }
        nonTouch.motions.append(entry)
    }

    mutating func processRemoteControl(_ subtype: RemoteControlSubtype) {
        sequenceNumber += 1                                      // N6: one event per record
        let event = sequenceNumber
        var entry = NonTouchSummary.Delivery(t: now, phase: nil, subtype: subtype.rawValue, responder: nil, source: nil,
                                             chain: [], delivered: [], handledBy: nil)
        if index.scene.app?.receivesRemoteControlEvents == false {
            // RC3: the app did not begin receiving remote-control events.
            trace.marker(.drop, index.object(.application),
                         note: "E\(String(event)) \(subtype.rawValue) dropped: the application does not receive remote-control events (RC3)")
            entry.dropped = true
        } else if let (r, source) = keyResponder() {
            keyResponderMarker("E\(event)", r, source, recognizers: nil)
            let (delivered, handledBy) = deliverUpChain(.remoteControl(subtype), from: r, event: event)
            entry.responder = index.ref(r).id
            entry.source = source
            entry.chain = chainIDs(chain(from: r))
            entry.delivered = chainIDs(delivered)
            entry.handledBy = handledBy.map { index.ref($0).id }
        }
        nonTouch.remoteControls.append(entry)
    }

    /// `sendEvent:`, then the method on `first` and up the chain until a responder handles it
    /// (an override without super, M2, RC2) or the chain ends (N5). UIApplication's own motion
    /// methods offer shake to edit and forward to the delegate or not (M3).
    private mutating func deliverUpChain(_ message: ChainMessage, from first: Responder,
                                         event: Int) -> (delivered: [Responder], handledBy: Responder?) {
        var delivered: [Responder] = []
        var handledBy: Responder?
        sendNonTouchEvent(event) { run in
            let subject = "E\(event)"
            let method = message.selector.names.objc.split(separator: ":").first.map(String.init) ?? ""
            var responder = first
            var depth = 0
            var asked = VisitedResponders()
            while true {
                if !asked.insert(responder) {
                    run.trace.marker(.chainWalk, run.index.object(responder),
                                     note: "nextResponder cycle: \(run.index.ref(responder).id) was already asked; forwarding stops (R7)")
                    break
                }
                let seq = run.trace.call(run.index.object(responder), message.selector,
                                         .init(.subtype, .word(message.subtypeName)), run.eventArg(event))
                run.trace.push(seq)
                depth += 1
                delivered.append(responder)
                if run.handles(message, responder) {
                    handledBy = responder
                    break
                }
                if responder == .application, case .motion(let phase) = message, phase != .cancelled,
                   run.index.motionOverrides(.application) == nil {
                    // M3: UIApplication's motionBegan:/motionEnded:.
                    if phase == .ended, run.index.scene.app?.applicationSupportsShakeToEdit ?? true {
                        run.trace.marker(.shakeToEdit, run.index.object(.application),
                                         note: "applicationSupportsShakeToEdit = YES: an undo alert would be offered (undo managers are not modelled, M3)")
                    }
                    if !run.knobs.motionReachesAppDelegate {
                        run.unhandledMarker(subject, method, last: responder)
                        break
                    }
                }
                guard let next = run.index.nextResponder(responder, includeWindowScene: run.knobs.includeWindowScene) else {
                    run.unhandledMarker(subject, method, last: responder)
                    break
                }
                responder = next
            }
            for _ in 0..<depth { run.trace.pop() }
        }
        return (delivered, handledBy)
    }

    /// Whether the responder's override consumes the message (M2, RC2).
    private func handles(_ message: ChainMessage, _ r: Responder) -> Bool {
        switch message {
        case .motion(let phase): return index.motionOverrides(r)?[phase] == .handle
        case .remoteControl(let subtype): return index.remoteControlOverride(r)?.handles(subtype) ?? false
        }
    }
}
