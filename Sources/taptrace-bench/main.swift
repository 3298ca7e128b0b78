import TapTraceCore
#if canImport(Glibc)
import Glibc
#endif

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func deepScene(depth: Int) -> String {
    var s = #"{"format": "taptrace/scene@1", "windows": [{"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "subviews": ["#
    for i in 0..<depth { s += #"{"id": "v\#(i)", "class": "UIView", "frame": [0, 0, 100, 100], "subviews": ["# }
    s += String(repeating: "]}", count: depth)
    return s + "]}]}"
}

let text = deepScene(depth: Int(CommandLine.arguments.dropFirst().first ?? "10000")!)
var t0 = now()
let tape = try JSONTape(parsing: Array(text.utf8))
print("parse", now() - t0); t0 = now()
let reader = DocumentReader(tape: tape)
let scene = SceneDecoder(reader: reader).decode(0, at: "")
print("decode", now() - t0); t0 = now()
let issues = SceneValidator.validate(scene)
print("validate", now() - t0, issues.issues.count); t0 = now()
let index = SceneIndex(validated: scene)
print("index", now() - t0); t0 = now()
let enc = SceneEncoder.encode(scene)
print("encode", now() - t0, enc.count); t0 = now()
