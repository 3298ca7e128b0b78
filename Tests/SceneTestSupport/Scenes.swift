import TapTraceCore
import TapTraceFormats

/// Scenes for the engine's tests, written as JSON. The shared scene of dispatch-rules.md §6: `AppDelegate` (a UIResponder), window `W`
/// (0,0,390,844) whose root view `R` belongs to `VC`. Tests give R's subviews (and extras) as
/// JSON fragments, which keeps each scenario readable next to its rule text.
public enum Scenes {
    public static func scene(_ rSubviews: String = "", rExtra: String = "", vc: String = "", app: String = "",
                      windows extraWindows: String = "", knobs: String = "") -> String {
        """
        {"format": "taptrace/scene@1",
         "app": {"delegate": {"id": "AppDelegate", "class": "AppDelegate", "isResponder": true}\(app.isEmpty ? "" : ", " + app)},
         \(knobs.isEmpty ? "" : "\"knobs\": \(knobs),")
         "windows": [
          {"id": "W", "class": "UIWindow", "frame": [0, 0, 390, 844], "level": 0, "isKey": true,
           "subviews": [
            {"id": "R", "class": "UIView", "frame": [0, 0, 390, 844],
             "viewController": {"id": "VC", "class": "ViewController"\(vc.isEmpty ? "" : ", " + vc)}
             \(rExtra.isEmpty ? "" : ", " + rExtra),
             "subviews": [\(rSubviews)]}
           ]}\(extraWindows.isEmpty ? "" : ", " + extraWindows)
         ]}
        """
    }

    /// A touches document from (t, id, phase, x, y) records; records at the same t are one event.
    public static func touches(_ changes: [(Double, String, String, Double, Double)], until: Double? = nil) -> String {
        var events: [(Double, [String])] = []
        for (t, id, phase, x, y) in changes {
            let c = "{\"id\": \"\(id)\", \"phase\": \"\(phase)\", \"at\": [\(x), \(y)]}"
            if let last = events.last, last.0 == t { events[events.count - 1].1.append(c) } else { events.append((t, [c])) }
        }
        let body = events.map { "{\"t\": \($0.0), \"touches\": [\($0.1.joined(separator: ", "))]}" }.joined(separator: ", ")
        return "{\"format\": \"taptrace/touches@1\", \"events\": [\(body)]\(until.map { ", \"until\": \($0)" } ?? "")}"
    }

    /// A single-finger tap from `t0` to `t1` at one point.
    public static func tap(_ x: Double, _ y: Double, _ t0: Double = 0, _ t1: Double = 0.1, id: String = "T1") -> String {
        touches([(t0, id, "began", x, y), (t1, id, "ended", x, y)])
    }

    public static func request(_ scene: String, _ touches: String, knobs: String = "") -> String {
        "{\"scene\": \(scene), \"touches\": \(touches)\(knobs.isEmpty ? "" : ", \"knobs\": \(knobs)")}"
    }

    /// Dispatches a request through the same path as `taptrace dispatch`.
    public static func run(_ scene: String, _ touches: String, knobs: String = "") throws -> DispatchResult {
        try TapTrace.dispatch(json: Array(request(scene, touches, knobs: knobs).utf8))
    }

    public static let touchView = #"{"id": "V", "class": "TouchView", "frame": [20, 100, 200, 200], "overrides": {"touches": "handle"}"#
}

extension DispatchResult {
    /// `"<receiver> <selector>"` for every call, in order (the conformance README's form).
    public var calls: [String] { trace.filter { $0.kind == .call }.map { "\($0.receiver!.id) \($0.selector!)" } }

    /// Calls, state changes and chosen markers in order, in a compact form for exact checks.
    public func events(markers: Set<MarkerKind> = [.withhold, .flush, .drop, .pending, .gate]) -> [String] {
        trace.compactMap { e in
            switch e.kind {
            case .call: return "\(e.receiver!.id) \(e.selector!)"
            case .state: return "[state] \(e.receiver!.id) \(e.from!.rawValue)→\(e.to!.rawValue) (\(e.reason!))"
            case .marker: return markers.contains(e.marker!) ? "[\(e.marker!.rawValue)] \(e.receiver?.id ?? "")" : nil
            }
        }
    }

    /// Calls made to views and controllers with touch methods only, in order.
    public var touchCalls: [String] { calls.filter { $0.contains(" touches") } }

    public func states(_ id: String) -> [RecognizerState] { recognizers.first { $0.id == id }?.states ?? [] }
    public var actionNames: [String] { actions.map(\.action) }
    public var chainIds: [String] { responderChain.map(\.ref.id) }
}

/// `needle` occurs in `haystack` in order (other elements may come between).
public func isSubsequence(_ needle: [String], of haystack: [String]) -> Bool {
    var i = haystack.startIndex
    for n in needle {
        guard let found = haystack[i...].firstIndex(of: n) else { return false }
        i = found + 1
    }
    return true
}
