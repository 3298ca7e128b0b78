import Dispatch
import Foundation

/// Waits for a termination signal (SIGINT/SIGTERM by default) using Dispatch signal sources.
///
/// Creating it ignores the signals' default action (so they no longer kill the process) and
/// starts listening; `wait()` then blocks until one arrives. After the first signal the default
/// action is restored, so a second Ctrl-C during a slow shutdown still ends the process.
///
///     let shutdown = ShutdownSignal()
///     try server.start()
///     shutdown.wait()
///     server.stop()
public final class ShutdownSignal: Sendable {
    private let signals: [Int32]
    private let received = Locked<Int32?>(nil)
    private let semaphore = DispatchSemaphore(value: 0)
    private let sources = Locked<[any DispatchSourceSignal]>([])

    public init(signals: [Int32] = [SIGINT, SIGTERM]) {
        self.signals = signals
        let queue = DispatchQueue(label: "taptrace.http.shutdown-signal")
        var created: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [received, semaphore, signals] in
                let first = received.withLock { value -> Bool in
                    guard value == nil else { return false }
                    value = number
                    return true
                }
                guard first else { return }
                for other in signals { signal(other, SIG_DFL) }
                semaphore.signal()
            }
            source.resume()
            created.append(source)
        }
        sources.withLock { $0 = created }
    }

    /// Blocks the calling thread until a signal arrives; returns its number.
    @discardableResult
    public func wait() -> Int32 {
        semaphore.wait()
        semaphore.signal()  // later waiters return at once
        return received.withLock { $0 } ?? 0
    }

    /// Like `wait()`, but gives up after `seconds` and returns nil.
    public func wait(timeoutSeconds seconds: Double) -> Int32? {
        guard semaphore.wait(timeout: .now() + seconds) == .success else { return nil }
        semaphore.signal()
        return received.withLock { $0 }
    }

    /// Stops listening and restores the signals' default action.
    public func cancel() {
        let current = sources.withLock { sources -> [any DispatchSourceSignal] in
            defer { sources = [] }
            return sources
        }
        for source in current { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }

    /// Convenience: blocks until SIGINT or SIGTERM and returns the signal number.
    @discardableResult
    public static func waitForTermination() -> Int32 {
        ShutdownSignal().wait()
    }
}
