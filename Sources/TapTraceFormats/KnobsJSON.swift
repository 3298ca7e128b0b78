import TapTraceCore
import TapTraceJSON

/// The `knobs` object of a result in compact form. Most results are dispatched with the
/// default knobs (a scene and a request that set none): their object is written once per
/// process and copied; writing two dozen names and numbers was 7 % of encoding a result.
enum KnobsJSON {
    private static let defaults = Knobs()
    private static let defaultsJSON = JSONFragments(count: 1, bytesPerFragment: 1024) { _, e in write(fields: defaults, &e) }

    /// The knobs object, the same bytes `JSONWriter` writes (`ResultEncoder.writeKnobs`).
    static func write(_ k: Knobs, _ e: inout ByteEmitter) {
        if k == defaults { defaultsJSON.write(0, &e) } else { write(fields: k, &e) }
    }

    /// `"name":` of every knob, escaped once per process.
    private static let keys = JSONFragments(count: Knobs.names.count) { k, e in
        e.string(Knobs.names[k])
        e.byte(0x3A)
    }

    private static func write(fields k: Knobs, _ e: inout ByteEmitter) {
        let keys = self.keys
        e.byte(0x7B)
        for (n, value) in k.orderedValues.enumerated() {
            if n > 0 { e.byte(0x2C) }
            keys.write(n, &e)
            switch value {
            case .number(let x): e.number(x)
            case .bool(let b): if b { e.literal("true") } else { e.literal("false") }
            case .string(let text): e.string(text)
            }
        }
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
