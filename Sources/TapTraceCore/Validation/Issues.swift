/// One problem in an input document: where (RFC 6901 JSON pointer) and what.
public struct ValidationIssue: Sendable, Hashable, CustomStringConvertible {
    public var pointer: String
    public var message: String
    public init(_ pointer: String, _ message: String) { self.pointer = pointer; self.message = message }
    public var description: String { "\(pointer.isEmpty ? "/" : pointer): \(message)" }
}

/// Collects issues up to a cap, so that a million broken views give a readable answer.
public struct IssueList: Sendable {
    public static let cap = 1000
    public private(set) var issues: [ValidationIssue] = []
    public private(set) var omitted = 0
    /// The first limit the document passed (`Limits`): it is an issue too, at its pointer, so
    /// that the document is refused wherever issues are checked, and `Problem` reports it as
    /// `limit-exceeded`.
    public var exceeded: LimitExceeded? { exceededBox?.value }
    /// Boxed: a list is copied and passed around by every validator, and a limit is rare; held
    /// inline it made every list several words larger.
    private var exceededBox: ExceededBox?
    public init() {}
    public var isEmpty: Bool { issues.isEmpty && exceededBox == nil }

    /// Records a limit passed, as an issue at its pointer.
    public mutating func exceed(_ e: LimitExceeded) {
        if exceededBox == nil { exceededBox = ExceededBox(e) }
        add(e.pointer ?? "", e.message)
    }

    public mutating func add(_ pointer: @autoclosure () -> String, _ message: @autoclosure () -> String) {
        guard issues.count < IssueList.cap else { omitted += 1; return }
        issues.append(ValidationIssue(pointer(), message()))
    }

    public mutating func append(contentsOf other: IssueList) {
        for issue in other.issues { add(issue.pointer, issue.message) }
        omitted += other.omitted
        if exceededBox == nil { exceededBox = other.exceededBox }
    }

    private final class ExceededBox: Sendable {
        let value: LimitExceeded
        init(_ value: LimitExceeded) { self.value = value }
    }
}

/// An input document that parsed as JSON but does not describe a valid scene, touch sequence or
/// request. Every issue found is listed, not only the first.
public struct ValidationFailure: Error, Sendable, CustomStringConvertible {
    public var issues: [ValidationIssue]
    /// Issues beyond `IssueList.cap` that were counted but not listed.
    public var omitted: Int
    /// The limit the document passed, if it passed one (`IssueList.exceeded`).
    public var exceeded: LimitExceeded?
    public init(_ list: IssueList) { issues = list.issues; omitted = list.omitted; exceeded = list.exceeded }
    public init(issues: [ValidationIssue]) { self.issues = issues; omitted = 0 }
    public init(_ exceeded: LimitExceeded) {
        self.init(issues: [ValidationIssue(exceeded.pointer ?? "", exceeded.message)])
        self.exceeded = exceeded
    }
    public var description: String {
        var lines = issues.map(\.description)
        if omitted > 0 { lines.append("… and \(omitted) more") }
        return lines.joined(separator: "\n")
    }
}

public enum JSONPointer {
    /// Escapes one reference token (RFC 6901: "~" → "~0", "/" → "~1").
    public static func escape(_ token: String) -> String {
        guard token.contains(where: { $0 == "~" || $0 == "/" }) else { return token }
        return token.replacingTildeAndSlash()
    }
}

extension String {
    fileprivate func replacingTildeAndSlash() -> String {
        var out = ""
        for ch in self {
            switch ch {
            case "~": out += "~0"
            case "/": out += "~1"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Appends a reference token to a JSON pointer.
    public func pointer(_ key: String) -> String { self + "/" + JSONPointer.escape(key) }
    public func pointer(_ index: Int) -> String { self + "/" + String(index) }
}
