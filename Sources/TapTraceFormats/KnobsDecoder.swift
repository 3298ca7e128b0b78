import TapTraceCore
import TapTraceJSON

/// Decodes a `knobs` object (scene defaults or a request's overrides), checking every name and
/// value against `Knobs`.
enum KnobsDecoder {
    static func decode(_ node: Int, at base: String, reader: DocumentReader) -> KnobOverrides {
        var values: [(String, KnobValue)] = []
        var scratch = Knobs()
        reader.object(node, at: { base }, keys: Knobs.allNames) { key, v in
            guard Knobs.allNames.contains(key) else { return false }
            let value: KnobValue
            switch reader.tape.kind(v) {
            case .number: value = .number(reader.tape.number(v) ?? .nan)
            case .bool: value = .bool(reader.tape.bool(v) ?? false)
            case .string: value = .string(reader.tape.string(v) ?? "")
            default:
                reader.report({ base.pointer(key) }, "must be a number, boolean or string")
                return true
            }
            if let problem = scratch.set(key, value) {
                reader.report({ base.pointer(key) }, problem)
            } else {
                values.append((key, value))
            }
            return true
        }
        return KnobOverrides(values)
    }
}
