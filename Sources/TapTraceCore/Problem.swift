/// Why a request cannot be answered, as an RFC 9457 problem document says it: a type (a word
/// the service and the CLI turn into a URI under `Problem.typeBase`), a title, a detail, and
/// for invalid documents every issue with its JSON pointer, for malformed input the line and
/// column. The engine's errors and the service's share this shape; the HTTP status is not part
/// of it: the service maps each type to its status (`TapTraceService`), and the CLI, which
/// prints the same document, asks the same mapping.
public struct Problem: Error, Sendable {
    public var kind: Kind
    public var title: String
    public var detail: String
    /// Validation issues, each with its JSON pointer.
    public var errors: [ValidationIssue]
    /// Issues beyond `IssueList.cap` that were counted but not listed.
    public var omitted: Int = 0
    /// Where malformed input broke (JSON syntax, importer grammar).
    public var line: Int?
    public var column: Int?
    /// For a JSON Patch (RFC 6902) that cannot be applied: the failing operation's index in
    /// the patch, and the JSON pointer it names that is at fault (its `path`, or its `from`).
    public var operation: Int?
    public var pointer: String?
    /// For a request that costs more than a limit allows: which limit, its value and the size
    /// met (`limit-exceeded`, see `Limits`).
    public var limit: LimitExceeded?
    /// When the same request may succeed, in seconds from now (the service's `Retry-After`):
    /// set for problems that depend on the server's load rather than on the request.
    public var retryAfter: Int?

    public static let typeBase = "https://taptrace.dev/problems/"

    /// What went wrong, as a word: the last segment of the type URI (`validation`,
    /// `malformed-json`, `not-found`, …). Each module declares the kinds it produces.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// A document that does not describe a valid scene, touch sequence or request.
        public static let validation = Kind("validation")
    }

    /// The type URI: `typeBase` and the kind.
    public var type: String { Problem.typeBase + kind.rawValue }

    public init(kind: Kind, title: String, detail: String, errors: [ValidationIssue] = []) {
        self.kind = kind
        self.title = title
        self.detail = detail
        self.errors = errors
    }

    /// Every issue of a document that is well-formed but invalid; a document that passed one
    /// of the `Limits` is that limit's problem instead (its other issues may be incomplete:
    /// the checks past the limit were not made).
    public init(_ failure: ValidationFailure) {
        if let exceeded = failure.exceeded {
            self.init(exceeded)
            return
        }
        let n = failure.issues.count + failure.omitted
        self.init(kind: .validation, title: "Invalid document",
                  detail: "\(n) problem\(n == 1 ? "" : "s") found; each names the JSON pointer of the value at fault.",
                  errors: failure.issues)
        omitted = failure.omitted
    }
}
