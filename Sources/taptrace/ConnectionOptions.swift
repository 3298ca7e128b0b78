import ArgumentParser
import Foundation
import TapTraceHTTP

/// `serve`'s connection limits (issue 34, item 2): in total and per client address. Each flag
/// has an environment variable used when the flag is absent.
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
