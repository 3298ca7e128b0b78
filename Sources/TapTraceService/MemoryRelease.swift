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
