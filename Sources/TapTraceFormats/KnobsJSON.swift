import TapTraceCore
import TapTraceJSON

/// The `knobs` object of a result in compact form. Most results are dispatched with the
/// default knobs (a scene and a request that set none): their object is written once per
/// process and copied; writing two dozen names and numbers was 7 % of encoding a result.
enum KnobsJSON {
    private static let defaults = Knobs()
    /// The default object, without and with the knobs of non-touch events.
    private static let defaultsJSON = JSONFragments(count: 2, bytesPerFragment: 1024) { k, e in
        write(fields: defaults, events: k == 1, &e)
    }

    /// The knobs object, the same bytes `JSONWriter` writes (`ResultEncoder.writeKnobs`); with
    /// `events` (a run with non-touch records) the knobs of `Knobs.eventNames` follow.
    static func write(_ k: Knobs, events: Bool = false, _ e: inout ByteEmitter) {
        if k == defaults { defaultsJSON.write(events ? 1 : 0, &e) } else { write(fields: k, events: events, &e) }
    }

    /// `"name":` of every knob (`Knobs.allNames`), escaped once per process.
    private static let keys = JSONFragments(count: Knobs.allNames.count) { k, e in
        e.string(Knobs.allNames[k])
        e.byte(0x3A)
    }

    private static func write(fields k: Knobs, events: Bool, _ e: inout ByteEmitter) {
        let keys = self.keys
        e.byte(0x7B)
        var n = 0
        func field(_ value: KnobValue) {
            if n > 0 { e.byte(0x2C) }
            keys.write(n, &e)
            switch value {
            case .number(let x): e.number(x)
            case .bool(let b): if b { e.literal("true") } else { e.literal("false") }
            case .string(let text): e.string(text)
            }
            n += 1
        }
        for value in k.orderedValues { field(value) }
        if events { for value in k.eventOrderedValues { field(value) } }
        e.byte(0x7D)
    }
}

extension JSONWriter {
    /// A knob's value (a result's `knobs`, a scene's or a request's overrides).
    mutating func knob(_ value: KnobValue) {
        switch value {
        case .number(let n): number(n)
        case .bool(let b): bool(b)
        case .string(let s): string(s)
        }
    }
}
