#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// glibc's per-thread cache of freed blocks, enlarged for `taptrace serve` (decision 57).
///
/// Why: the run writer frees what the HTTP workers allocated for a stored run (its request,
/// result and closures), and the workers free in bursts of their own. With glibc's default of
/// 7 blocks of each size in a thread's cache, most of those frees fall through to the arena of
/// the thread that allocated the block and take its lock, while that thread is allocating:
/// `perf` showed the writer asleep on a worker's arena lock. With 64, stored dispatch takes
/// 3–5 % less CPU per request, stateless dispatch 2 % (docs/performance.md).
///
/// glibc reads the setting only when a program starts (`GLIBC_TUNABLES`), so `serve` starts
/// itself again with it, once, before anything else. An operator's own
/// `glibc.malloc.tcache_count` is kept as it is (`…=7` is glibc's default).
enum MallocTuning {
    static let variable = "GLIBC_TUNABLES"
    static let tunable = "glibc.malloc.tcache_count"
    static let count = 64

    /// The value of `GLIBC_TUNABLES` to run with, or nil when `current` already sets the count.
    static func tunables(current: String?) -> String? {
        let current = current ?? ""
        if current.split(separator: ":").contains(where: { $0.hasPrefix(tunable + "=") }) { return nil }
        let setting = "\(tunable)=\(count)"
        return current.isEmpty ? setting : current + ":" + setting
    }

    /// Replaces the process with the same program and arguments under the enlarged cache.
    /// Returns when that is not needed, or not possible: the server then runs with glibc's
    /// default cache, as it would anywhere else.
    static func restartIfNeeded() {
        #if os(Linux)
        // Once at most, whatever glibc makes of the variable (2.36 cuts it at each ':' in
        // the process's own copy of the environment while it reads it).
        guard getenv(restarted) == nil else { return }
        let current = getenv(variable).map { String(cString: $0) }
        guard let value = tunables(current: current) else { return }
        setenv(variable, value, 1)
        setenv(restarted, "1", 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // Only reached when execv failed: leave the environment as it was.
        if let current { setenv(variable, current, 1) } else { unsetenv(variable) }
        unsetenv(restarted)
        #endif
    }

    /// Set for the restarted program, so that it never restarts again.
    static let restarted = "TAPTRACE_MALLOC_TUNED"
}
