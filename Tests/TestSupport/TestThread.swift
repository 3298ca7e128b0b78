import Foundation

/// Runs `body` on a new thread (not the cooperative pool, which blocking socket calls would
/// starve on a small machine); `join()` waits for it. Shared by the HTTP and service tests.
public final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let thread: Thread

    public init(_ body: @escaping @Sendable () -> Void) {
        let done = self.done
        thread = Thread {
            body()
            done.signal()
        }
        thread.start()
    }

    /// False when the thread did not finish within `timeoutSeconds`.
    @discardableResult
    public func join(timeoutSeconds: Double = 60) -> Bool {
        done.wait(timeout: .now() + timeoutSeconds) == .success
    }
}
