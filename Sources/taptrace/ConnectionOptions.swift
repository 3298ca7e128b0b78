import ArgumentParser
import Foundation
import TapTraceHTTP

/// `serve`'s connection limits (issue 34, item 2): in total and per client address, deadlines,
/// and the relay in front of libmicrohttpd. Each flag has an environment variable used when the
/// flag is absent.
struct ConnectionOptions: ParsableArguments {
    static let defaults = HTTPServerConfiguration()

    @Option(name: .customLong("connection-limit"), help: ArgumentHelp(
        "Connections served at once; further ones wait in the listen backlog (TAPTRACE_CONNECTION_LIMIT; default \(defaults.connectionLimit)).",
        valueName: "n"))
    var connectionLimit: String?

    @Option(name: .customLong("connections-per-address"), help: ArgumentHelp(
        "Connections one client address may hold open; one more is answered 503 and closed (TAPTRACE_CONNECTIONS_PER_ADDRESS; default \(defaults.connectionsPerAddress)).",
        valueName: "n"))
    var connectionsPerAddress: String?

    @Option(name: .customLong("request-head-timeout"), help: ArgumentHelp(
        "Seconds within which a request's whole head must arrive, from when the connection is ready for it; an idle keep-alive connection is closed after as long; off for none (TAPTRACE_REQUEST_HEAD_TIMEOUT; default \(Self.seconds(defaults.requestHeadTimeoutSeconds))).",
        valueName: "seconds"))
    var requestHeadTimeout: String?

    @Option(name: .customLong("request-body-timeout"), help: ArgumentHelp(
        "Seconds within which a request's whole body must arrive after its head; off for none (TAPTRACE_REQUEST_BODY_TIMEOUT; default \(Self.seconds(defaults.requestBodyTimeoutSeconds))).",
        valueName: "seconds"))
    var requestBodyTimeout: String?

    @Flag(name: .customLong("request-relay"), inversion: .prefixedNo, help: ArgumentHelp(
        "Read every request in a relay before libmicrohttpd, so that malformed ones are answered as problem documents rather than libmicrohttpd's HTML; off saves 15–45 µs of CPU per request behind a proxy that refuses them itself (TAPTRACE_REQUEST_RELAY=1/0; default on; always off with TLS)."))
    var requestRelay: Bool?

    /// Sets the limits from the flags, else the variables; the configuration's defaults stay
    /// for those given by neither.
    func apply(to configuration: inout HTTPServerConfiguration, environment: [String: String]) throws {
        if let total = try Self.count(connectionLimit, "--connection-limit", "TAPTRACE_CONNECTION_LIMIT", environment) {
            configuration.connectionLimit = total
        }
        if let perAddress = try Self.count(connectionsPerAddress, "--connections-per-address",
                                           "TAPTRACE_CONNECTIONS_PER_ADDRESS", environment) {
            configuration.connectionsPerAddress = perAddress
        }
        if let head = try Self.timeout(requestHeadTimeout, "--request-head-timeout", "TAPTRACE_REQUEST_HEAD_TIMEOUT", environment) {
            configuration.requestHeadTimeoutSeconds = head
        }
        if let body = try Self.timeout(requestBodyTimeout, "--request-body-timeout", "TAPTRACE_REQUEST_BODY_TIMEOUT", environment) {
            configuration.requestBodyTimeoutSeconds = body
        }
        if let requestRelay {
            configuration.relaysRequests = requestRelay
        } else if let text = SettingSource.variable("TAPTRACE_REQUEST_RELAY", in: environment) {
            guard let value = Settings.boolean(text) else {
                throw ValidationError("TAPTRACE_REQUEST_RELAY must be 1 or 0 (true/false, yes/no, on/off), not \(text)")
            }
            configuration.relaysRequests = value
        }
    }

    /// A timeout in seconds (decimals allowed, more than 0), `.some(nil)` for `off`; nil when
    /// not given.
    static func timeout(_ flagValue: String?, _ flag: String, _ variable: String,
                        _ environment: [String: String]) throws -> Double?? {
        guard let (text, source) = SettingSource.text(flag: flagValue, flag, variable: variable, in: environment) else { return nil }
        if text.lowercased() == "off" { return .some(nil) }
        guard let value = Double(text), value > 0, value <= 86_400 else {
            throw ValidationError("\(source) must be a number of seconds above 0 and at most 86400, or off, not \(text)")
        }
        return .some(value)
    }

    static func seconds(_ value: Double?) -> String {
        guard let value else { return "off" }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// A count from 1 to 1,000,000 (the descriptors a process can hold bound it anyway).
    static func count(_ flagValue: String?, _ flag: String, _ variable: String,
                      _ environment: [String: String]) throws -> Int? {
        guard let (text, source) = SettingSource.text(flag: flagValue, flag, variable: variable, in: environment) else { return nil }
        guard let value = Int(text), value >= 1, value <= 1_000_000 else {
            throw ValidationError("\(source) must be a whole number from 1 to 1000000, not \(text)")
        }
        return value
    }
}
