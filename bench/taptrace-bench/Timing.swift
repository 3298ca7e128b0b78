#if canImport(Glibc)
import Glibc
#endif
import TapTraceCore
import TapTraceJSON

/// Wall-clock timing for the benchmarks run by hand (medians of repeated runs). The guard
/// (`counts`) counts instructions instead: on this shared machine wall-clock figures swing ±50%.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

/// Runs `body` `n` times and returns the median time in seconds.
func measure(_ n: Int, _ body: () -> Void) -> Double {
    var times: [Double] = []
    times.reserveCapacity(n)
    for _ in 0..<n {
        let t0 = now()
        body()
        times.append(now() - t0)
    }
    return median(times)
}

func fmt(_ x: Double, _ digits: Int = 1) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let r = (x * p).rounded() / p
    return JSONWriter.format(r)
}
