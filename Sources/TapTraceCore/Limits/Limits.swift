/// What one request may cost (issue 34, item 1): each size a request can make the engine or the
/// service reach, with its largest allowed value. Each is checked where the size is first
/// known: the touch records a touches document expands to before any is made, the views of a
/// scene before it is validated or indexed, the trace while the run records it, an answer's
/// bytes before it is sent or stored, a stored result's bytes before it is decoded.
///
/// `taptrace serve` starts from `serviceDefaults`; the CLI and code that calls the engine
/// directly use `unlimited` unless told otherwise. A size past its limit is a
/// `LimitExceeded`, never a crash or a partial answer.
public struct Limits: Sendable, Hashable {
    /// Touch records one request dispatches, gestures expanded: each change of a touch counts,
    /// so a tap is 2, a double tap 4, a long press 2 and a drag of `steps` n is n + 2; a record
    /// of `events` counts each touch it changes. (Press, motion and remote-control records
    /// count here too once the engine has them.)
    public var records: Int
    /// Trace entries one dispatch records.
    public var traceEntries: Int
    /// Views of one scene, windows included.
    public var views: Int
    /// Bytes of one answer: a result (a stored dispatch's too, before it is stored), a stored
    /// run read back, its text and Chrome trace exports, a comparison, a geometry page.
    public var responseBytes: Int
    /// Bytes of one stored result that a request decodes: text and Chrome exports, compare
    /// (each of the two runs), replay (each original in turn).
    public var readBytes: Int
    /// Views in one answer of `GET /v1/scenes/{id}/geometry`: the page size, and the largest
    /// `?limit=` a client may ask for.
    public var geometryViews: Int

    public init(records: Int = .max, traceEntries: Int = .max, views: Int = .max, responseBytes: Int = .max,
                readBytes: Int = .max, geometryViews: Int = .max) {
        self.records = records
        self.traceEntries = traceEntries
        self.views = views
        self.responseBytes = responseBytes
        self.readBytes = readBytes
        self.geometryViews = geometryViews
    }

    /// No limit at all: what the CLI and the engine's own entry points use by default.
    public static let unlimited = Limits()

    /// `taptrace serve`'s defaults. They admit a 100,001-view scene (5.3 MB of JSON, within
    /// the 8 MiB body limit; a tap on it traces up to a few thousand entries) and what a
    /// harness sends in practice (the benchmark's 10 s two-finger gesture at 120 Hz is 2,402
    /// records and 16,039 trace entries), and keep one request's memory to a few hundred
    /// megabytes: a trace entry is about 230–340 bytes of JSON, so the longest trace allowed
    /// is a result of about 34 MB, which the answer and read limits admit (a result the
    /// service stored can always be read back), and whose comparison with another peaks at
    /// about 370 MB.
    public static let serviceDefaults = Limits(records: 20_000, traceEntries: 100_000, views: 200_000,
                                               responseBytes: 64 << 20, readBytes: 64 << 20, geometryViews: 20_000)

    /// The value of one limit.
    public subscript(limit: Limit) -> Int {
        get {
            switch limit {
            case .records: return records
            case .traceEntries: return traceEntries
            case .views: return views
            case .responseBytes: return responseBytes
            case .readBytes: return readBytes
            case .geometryViews: return geometryViews
            }
        }
        set {
            switch limit {
            case .records: records = newValue
            case .traceEntries: traceEntries = newValue
            case .views: views = newValue
            case .responseBytes: responseBytes = newValue
            case .readBytes: readBytes = newValue
            case .geometryViews: geometryViews = newValue
            }
        }
    }

    /// `LimitExceeded` when `size` is past `limit`.
    public func check(_ limit: Limit, _ size: Int, pointer: String? = nil) throws(LimitExceeded) {
        let maximum = self[limit]
        if size > maximum { throw LimitExceeded(limit, maximum: maximum, size: size, pointer: pointer) }
    }
}

/// One of the `Limits`, named as its settings are: the flag `--max-<name>` and the
/// environment variable `TAPTRACE_MAX_<NAME>` of `taptrace serve` and the CLI commands.
public enum Limit: String, CaseIterable, Sendable, Hashable {
    case records
    case traceEntries = "trace-entries"
    case views
    case responseBytes = "response-bytes"
    case readBytes = "read-bytes"
    case geometryViews = "geometry-views"

    /// `--max-records`.
    public var flag: String { "--max-" + rawValue }

    /// `TAPTRACE_MAX_RECORDS`.
    public var environmentVariable: String {
        "TAPTRACE_MAX_" + String(rawValue.map { $0 == "-" ? "_" : Character($0.uppercased()) })
    }

    /// What the limit counts, in the plural ("touch records", "bytes").
    public var unit: String {
        switch self {
        case .records: return "touch records"
        case .traceEntries: return "trace entries"
        case .views, .geometryViews: return "views"
        case .responseBytes, .readBytes: return "bytes"
        }
    }

    /// What the limit bounds, for messages: "touch records per request".
    public var scope: String {
        switch self {
        case .records: return "touch records per request (gestures expanded)"
        case .traceEntries: return "trace entries per dispatch"
        case .views: return "views per scene"
        case .responseBytes: return "bytes per answer"
        case .readBytes: return "bytes per stored result read"
        case .geometryViews: return "views per geometry page"
        }
    }
}

/// A size past its limit: which limit, its value, the size met (or, where the work stopped as
/// soon as it crossed the limit, the size reached by then: `isLowerBound`), and where in the
/// request the size comes from, when a member of the body makes it.
public struct LimitExceeded: Error, Sendable, Hashable, CustomStringConvertible {
    public var limit: Limit
    public var maximum: Int
    public var size: Int
    /// The work stopped when it crossed the limit: the full size is at least `size`.
    public var isLowerBound: Bool
    public var pointer: String?

    public init(_ limit: Limit, maximum: Int, size: Int, isLowerBound: Bool = false, pointer: String? = nil) {
        self.limit = limit
        self.maximum = maximum
        self.size = size
        self.isLowerBound = isLowerBound
        self.pointer = pointer
    }

    /// "10,000,002 touch records; at most 20,000 touch records per request (gestures expanded)
    /// are allowed (raise it with --max-records or TAPTRACE_MAX_RECORDS)": the subject is the
    /// caller's ("the touches expand to …").
    public var message: String {
        let measured = (isLowerBound ? "at least " : "") + Self.grouped(size)
        return "\(measured) \(limit.unit); at most \(Self.grouped(maximum)) \(limit.scope) are allowed"
            + " (raise it with \(limit.flag) or \(limit.environmentVariable))"
    }

    public var description: String { "\(limit.rawValue) limit exceeded: \(message)" }

    /// 1234567 → "1,234,567": sizes are read by people deciding whether to raise a limit.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, ch) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(ch)
        }
        return (n < 0 ? "-" : "") + out
    }
}
