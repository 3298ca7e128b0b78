import Foundation
import TapTraceCore
import TapTraceFormats
import TapTraceHTTP
import TapTraceRuns
import TapTraceStore

/// What one request may cost (issue 34, item 1 and the time budget of item 2): the service's
/// `Limits` and request time budget applied by the routes.
///
/// - Sizes known from the body (a scene's views, the touch records its touches expand to) are
///   checked while it is decoded, before the work they would cost (`DocumentReader`).
/// - A run's trace and its time are checked by the engine between two input records
///   (`WorkBudget`); a request that runs several dispatches (why, check, replay) shares one
///   budget, and the routes check it between their phases.
/// - An answer's bytes are checked before it is sent or stored; a stored result's bytes
///   before it is decoded.
///
/// Over a limit, the request is refused whole with a `limit-exceeded` problem (422) naming the
/// limit, its value, the size and the flag and environment variable that raise it; past the
/// time budget with a `time-budget-exceeded` problem (503, `Retry-After`). Nothing is stored
/// for a refused request, and no partial result is answered.
extension TapTraceService {
    /// A budget for one request's work, starting now; it stops when the request's client
    /// hangs up (`ConnectionWatch`).
    func budget(for request: HTTPRequest) -> WorkBudget {
        WorkBudget(limits: limits, time: requestTimeBudget, cancellation: ClientHangUp(request: request.cancellation))
    }

    /// Throws the problem of a budget that stopped the work.
    static func finish(_ budget: WorkBudget) throws(Problem) {
        do throws(WorkStop) { try budget.finish() } catch { throw Problem(error) }
    }

    /// Between two phases of a request's work: stops when the budget has run out.
    static func check(_ budget: WorkBudget) throws(Problem) {
        do throws(WorkStop) { try budget.check() } catch { throw Problem(error) }
    }

    /// `bytes` when they are within the answer limit (`--max-response-bytes`).
    func bounded(_ bytes: [UInt8]) throws(Problem) -> [UInt8] {
        try checkResponse(size: bytes.count)
        return bytes
    }

    /// An answer of `size` bytes (or a stored result that an answer copies) against the limit.
    func checkResponse(size: Int) throws(Problem) {
        do throws(LimitExceeded) { try limits.check(.responseBytes, size) } catch { throw Problem(error) }
    }

    /// A stored run's result, decoded, when its bytes are within `--max-read-bytes`: checked
    /// before decoding, which makes a `DispatchResult` many times the size of the bytes (a
    /// 160 MB result took compare to several gigabytes).
    func readResult(_ run: RunRecord) throws -> DispatchResult {
        try checkReadable(run)
        return try decodeResult(run)
    }

    /// A stored run's result against `--max-read-bytes`.
    func checkReadable(_ run: RunRecord) throws(Problem) {
        do throws(LimitExceeded) { try limits.check(.readBytes, run.result.count) } catch {
            var problem = Problem(error)
            problem.detail = "The stored result of \(run.id) has " + error.message + "."
            throw problem
        }
    }
}

/// A request's cancellation as the engine's `WorkCancellation`.
struct ClientHangUp: WorkCancellation {
    let request: RequestCancellation
    var isCancelled: Bool { request.isCancelled }
}
