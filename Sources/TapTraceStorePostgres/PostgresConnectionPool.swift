import Foundation

/// Connections to one database, each used by one thread at a time: the server's worker threads
/// and the run writer take one for an operation and give it back.
///
/// Connections are made when needed, up to `maxConnections`; a caller that finds all of them
/// busy waits up to `waitTimeout` and then fails with a busy storage error (503), never hangs.
/// A connection whose server went away (a restart, a stop) is dropped, with every idle one
/// beside it, and the next operation connects again: the store reconnects by itself once the
/// server answers, and until then operations fail at once with an unreachable error.
final class PostgresConnectionPool: @unchecked Sendable {
    private let url: String
    private let defaults: [(String, String)]
    private let setUp: (PostgresConnection) throws -> Void
    private let maxConnections: Int
    private let waitTimeout: TimeInterval
    let counter = RoundTripCounter()

    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var closed = false

    init(url: String, defaults: [(String, String)], maxConnections: Int, waitTimeout: TimeInterval,
         setUp: @escaping (PostgresConnection) throws -> Void) {
        self.url = url
        self.defaults = defaults
        self.maxConnections = max(1, maxConnections)
        self.waitTimeout = waitTimeout
        self.setUp = setUp
    }

    /// Runs `body` with a connection of its own.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        do {
            let value = try body(connection)
            checkIn(connection)
            return value
        } catch let error as PostgresError where error.connectionLost {
            discard(connection, allIdle: true)
            throw error
        } catch {
            checkIn(connection)
            throw error
        }
    }

    /// Closes every idle connection; connections in use close when they come back.
    func close() {
        condition.withLock {
            closed = true
            open -= idle.count
            idle.removeAll()
            condition.broadcast()
        }
    }

    private func checkOut() throws -> PostgresConnection {
        let deadline = Date().addingTimeInterval(waitTimeout)
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw PostgresError(sqlState: nil, message: "the store is closed", connectionLost: false)
            }
            while let connection = idle.popLast() {
                if connection.isUsable {
                    condition.unlock()
                    return connection
                }
                // The server closed it while it sat idle (a restart): drop it, try the next.
                open -= 1
            }
            if open < maxConnections { break }
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw PostgresError(
                    sqlState: "55P03",
                    message: "all \(maxConnections) database connections stayed busy for \(Int(waitTimeout)) s",
                    connectionLost: false)
            }
        }
        open += 1
        condition.unlock()
        do {
            let connection = try PostgresConnection(url: url, defaults: defaults, counter: counter)
            try setUp(connection)
            return connection
        } catch {
            condition.withLock {
                open -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        guard !connection.isBroken else { return discard(connection, allIdle: true) }
        condition.withLock {
            if closed {
                open -= 1
            } else {
                idle.append(connection)
            }
            condition.signal()
        }
    }

    private func discard(_ connection: PostgresConnection, allIdle: Bool) {
        condition.withLock {
            open -= 1
            if allIdle {
                // They were most likely cut off with it; each is checked (`isUsable`) anyway,
                // but a server that restarted may not have told them yet.
                open -= idle.count
                idle.removeAll()
            }
            condition.broadcast()
        }
    }
}
