import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Gives memory freed by a large request back to the system.
///
/// glibc keeps freed blocks in its arenas for reuse, and a replay allocates hundreds of
/// megabytes of small blocks (a result document per run) on one thread's arena: after it the
/// server's resident memory stayed at its peak (260 MB after replaying 10,000 runs) although
/// nothing was in use. `malloc_trim` returns the free pages. It is looked up at run time
/// because Swift's Glibc module does not declare it; elsewhere this does nothing.
enum MemoryRelease {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if canImport(Glibc)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: Trim.self)
        #else
        return nil
        #endif
    }()

    /// Whether `malloc_trim` was found (glibc).
    static var isAvailable: Bool { trim != nil }

    /// Returns free heap memory to the system (a few milliseconds after a large replay).
    static func afterLargeRequest() {
        _ = trim?(0)
    }
}

/// Gives freed memory back to the system once the service has been idle for a while.
///
/// The scene caches' byte budgets bound what they hold, but what a burst of large scenes
/// freed (evicted indexes, request bodies, decoding's intermediate values) stays in glibc's
/// arenas: after uploading 40 large scenes the process kept 2.66 GiB while doing nothing. Every
/// `interval` this looks at a counter of activity (the caches' uses); when it moved during the
/// previous interval and not during the last one, the service has gone quiet after work, and
/// `malloc_trim` returns the free pages (once per quiet spell, not every interval). Trimming
/// during work would only make the next requests take the memory back from the kernel.
public final class IdleMemoryRelease: @unchecked Sendable {
    /// After how long without activity memory is given back, by default.
    public static let defaultInterval: Duration = .seconds(10)

    /// What `tick` remembers between two looks (pure, for tests).
    struct State {
        var lastActivity: Int?
        /// Activity was seen since the last release.
        var worked = false

        /// Given the activity counter now: whether to release memory now.
        mutating func tick(activity: Int) -> Bool {
            defer { lastActivity = activity }
            guard let lastActivity else { return false }
            if activity != lastActivity {
                worked = true
                return false
            }
            guard worked else { return false }
            worked = false
            return true
        }
    }

    /// What the thread shares with its owner: not the owner itself, so that releasing the owner
    /// (a service in a test) stops the thread (`deinit`).
    private final class Control: @unchecked Sendable {
        let condition = NSCondition()
        var stopped = false
        var releases = 0
    }

    private let control = Control()

    /// Releases so far (for tests).
    var releases: Int { control.condition.withLock { control.releases } }

    /// Starts the thread that looks every `interval`.
    init(interval: Duration, activity: @escaping @Sendable () -> Int,
         release: @escaping @Sendable () -> Void = MemoryRelease.afterLargeRequest) {
        let seconds = interval / .seconds(1)
        let control = self.control
        let thread = Thread {
            Thread.current.name = "TapTrace-trim"
            var state = State()
            while true {
                control.condition.lock()
                if !control.stopped { _ = control.condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
                let stop = control.stopped
                control.condition.unlock()
                if stop { return }
                if state.tick(activity: activity()) {
                    release()
                    control.condition.withLock { control.releases += 1 }
                }
            }
        }
        thread.start()
    }

    deinit { stop() }

    /// Ends the thread (at once if it waits, else after its look).
    func stop() {
        control.condition.withLock {
            control.stopped = true
            control.condition.broadcast()
        }
    }
}
