import ArgumentParser
import Foundation
import TapTraceCore
import TapTraceService

/// The request limits (issue 34, item 1) as flags, each also read from its environment
/// variable when the flag is absent (`--max-records` / `TAPTRACE_MAX_RECORDS`, and so on):
/// the ones the CLI's commands share with `taptrace serve`. The commands apply none unless
/// told (`Limits.unlimited`); `serve` starts from `Limits.serviceDefaults`.
///
/// A value is a positive integer (byte counts may end in K, M or G: KiB, MiB, GiB), or `off`
/// for no limit.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-records"), help: ArgumentHelp(
        "Most touch records one request dispatches, gestures expanded (a tap is 2, a drag of N steps N + 2), or off (\(Self.defaults(.records))).",
        valueName: "n"))
    var maxRecords: String?

    @Option(name: .customLong("max-trace-entries"), help: ArgumentHelp(
        "Most trace entries one dispatch records, or off (\(Self.defaults(.traceEntries))).", valueName: "n"))
    var maxTraceEntries: String?

    @Option(name: .customLong("max-views"), help: ArgumentHelp(
        "Most views in one scene, windows included, or off (\(Self.defaults(.views))).", valueName: "n"))
    var maxViews: String?

    @Option(name: .customLong("max-response-bytes"), help: ArgumentHelp(
        "Largest answer in bytes (a result, a stored one included; exports, comparisons); K, M and G suffixes allowed, or off (\(Self.defaults(.responseBytes))).",
        valueName: "bytes"))
    var maxResponseBytes: String?

    /// "TAPTRACE_MAX_RECORDS; default 20000 for serve, off for the other commands".
    static func defaults(_ limit: Limit) -> String {
        "\(limit.environmentVariable); default \(Self.text(Limits.serviceDefaults[limit], bytes: limit.isBytes)) for serve, off for the other commands"
    }

    static func text(_ value: Int, bytes: Bool) -> String {
        guard bytes else { return String(value) }
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] where value % (1 << shift) == 0 {
            return "\(value >> shift)\(suffix)"
        }
        return String(value)
    }

    /// `base` with each limit given by a flag or a variable in place of its default.
    func limits(environment: [String: String], base: Limits = .unlimited) throws -> Limits {
        var limits = base
        let given: [(Limit, String?)] = [(.records, maxRecords), (.traceEntries, maxTraceEntries), (.views, maxViews),
                                         (.responseBytes, maxResponseBytes)]
        for (limit, flag) in given {
            if let value = try Self.value(of: limit, flag: flag, environment: environment) { limits[limit] = value }
        }
        return limits
    }

    /// The flag's value, else the environment variable's, parsed; nil when neither is given.
    /// `off` is `Int.max`.
    static func value(of limit: Limit, flag: String?, environment: [String: String]) throws -> Int? {
        guard let (text, source) = SettingSource.text(flag: flag, limit.flag, variable: limit.environmentVariable,
                                                     in: environment) else { return nil }
        if text.lowercased() == "off" { return .max }
        let parsed = limit.isBytes ? SettingSource.byteCount(text) : Int(text)
        guard let value = parsed, value >= 1 else {
            let form = limit.isBytes ? "a byte count of at least 1 (e.g. 65536, 512K, 32M, 1G)" : "a positive integer"
            throw ValidationError("\(source) must be \(form) or off, not \(text)")
        }
        return value
    }
}

/// `taptrace serve`'s limits: those of the CLI (`LimitOptions`), the two that only stored runs
/// and scenes have, and the request time budget (issue 34, item 2).
struct ServeLimitOptions: ParsableArguments {
    @OptionGroup var common: LimitOptions

    @Option(name: .customLong("max-read-bytes"), help: ArgumentHelp(
        "Largest stored result that compare, replay and the text and Chrome exports decode, in bytes; K, M and G suffixes allowed, or off (\(Limit.readBytes.environmentVariable); default \(LimitOptions.text(Limits.serviceDefaults.readBytes, bytes: true))).",
        valueName: "bytes"))
    var maxReadBytes: String?

    @Option(name: .customLong("max-geometry-views"), help: ArgumentHelp(
        "Most views in one page of GET /v1/scenes/{id}/geometry, or off (\(Limit.geometryViews.environmentVariable); default \(Limits.serviceDefaults.geometryViews)).",
        valueName: "n"))
    var maxGeometryViews: String?

    @Option(name: .customLong("request-time-budget"), help: ArgumentHelp(
        "Seconds one request's work may take before it is stopped with 503 (decimals allowed), or off (\(Problem.timeBudgetVariable); default \(WorkBudget.seconds(TapTraceService.defaultRequestTimeBudget))).",
        valueName: "seconds"))
    var requestTimeBudget: String?

    /// The service's limits: its defaults, then the flags and variables.
    func limits(environment: [String: String]) throws -> Limits {
        var limits = try common.limits(environment: environment, base: .serviceDefaults)
        for (limit, flag) in [(Limit.readBytes, maxReadBytes), (.geometryViews, maxGeometryViews)] {
            if let value = try LimitOptions.value(of: limit, flag: flag, environment: environment) { limits[limit] = value }
        }
        return limits
    }

    /// The request time budget: the flag, else `TAPTRACE_REQUEST_TIME_BUDGET`, else the
    /// default; nil for `off`.
    func timeBudget(environment: [String: String]) throws -> Duration? {
        let variable = Problem.timeBudgetVariable
        guard let (text, source) = SettingSource.text(flag: requestTimeBudget, Problem.timeBudgetFlag, variable: variable,
                                                     in: environment) else {
            return TapTraceService.defaultRequestTimeBudget
        }
        if text.lowercased() == "off" { return nil }
        // At most a day: a budget is a bound on one request, and the conversion stays exact.
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw ValidationError("\(source) must be a number of seconds above 0 and at most 86400 (e.g. 30, 2.5), or off, not \(text)")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}

extension Limit {
    /// Whether the limit counts bytes (and its value takes K, M and G suffixes).
    var isBytes: Bool { self == .responseBytes || self == .readBytes }
}

extension LimitOptions {
    /// The limits a command applies: those given by a flag or a variable, none otherwise.
    func resolved() throws -> Limits {
        try limits(environment: ProcessInfo.processInfo.environment)
    }
}

/// How the commands apply their limits: a limit passed is exit code 2 with the same
/// `limit-exceeded` problem document `taptrace serve` answers.
enum CommandLimits {
    /// Throws the problem of a budget that stopped the work.
    static func finish(_ budget: WorkBudget) throws {
        do throws(WorkStop) { try budget.finish() } catch { throw CLIFailure(Problem(error)) }
    }

    /// What a command prints, held to `--max-response-bytes`.
    static func output(_ bytes: [UInt8], _ limits: Limits) throws -> [UInt8] {
        do throws(LimitExceeded) { try limits.check(.responseBytes, bytes.count) } catch { throw CLIFailure(Problem(error)) }
        return bytes
    }

    static func output(_ text: String, _ limits: Limits) throws -> String {
        do throws(LimitExceeded) { try limits.check(.responseBytes, text.utf8.count) } catch { throw CLIFailure(Problem(error)) }
        return text
    }

    /// A scene made in code (an import) against `--max-views`.
    static func checkViews(_ scene: Scene, _ limits: Limits, subject: String) throws {
        do throws(LimitExceeded) { try limits.check(.views, scene.views.count) } catch {
            var problem = Problem(error)
            problem.detail = "\(subject) has " + error.message + "."
            throw CLIFailure(problem)
        }
    }
}
