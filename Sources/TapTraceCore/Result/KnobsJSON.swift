/// The `knobs` object of a result in compact form. A scene's own knobs (the defaults with the
/// scene's values) are written once, when the scene is indexed, and copied into every result
/// that dispatched with them, which is every result whose request sets no knob: writing two
/// dozen names and numbers was 7 % of encoding a result (callgrind, 2026-11-24).
final class KnobsJSON: Sendable {
    let knobs: Knobs
    let json: JSONFragments

    init(_ knobs: Knobs) {
        self.knobs = knobs
        json = JSONFragments(count: 1, bytesPerFragment: 1024) { _, e in KnobsJSON.write(knobs, &e) }
    }

    /// `"name":` of every knob, escaped once per process.
    private static let keys = JSONFragments(count: Knobs.names.count) { k, e in
        e.string(Knobs.names[k])
        e.byte(0x3A)
    }

    /// The knobs object, the same bytes `JSONWriter` writes (`ResultEncoder.writeKnobs`).
    static func write(_ k: Knobs, _ e: inout ByteEmitter) {
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
