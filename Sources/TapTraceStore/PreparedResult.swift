import Foundation

/// A run's result in the form the store writes it, computed before the write transaction:
/// the row of an equal result stored lately, or the result hashed and compressed.
///
/// Compressing a result inside the transaction held the write lock, and with it every other
/// writer, for as long as compression took (9.5 s for a 1.6 GB result, on the run writer's
/// single thread). Prepared on the request's thread, a big result costs its own request that
/// time and nobody else's.
package enum PreparedResult: Sendable {
    /// An equal result that a committed transaction wrote or found lately (`RecentResults`):
    /// nothing to hash or compress. Its row stays valid while its scene exists, which the
    /// insert checks in its transaction.
    case recent(id: Int64)
    /// The result's digest and stored form (`ResultDigest`, `ResultCompression`).
    case encoded(digest: Int64, encoding: String, bytes: Data)

    /// Hashed and compressed, without looking among the recent results.
    package static func encoding(_ result: Data) -> PreparedResult {
        let stored = ResultCompression.encode(result)
        return .encoded(digest: result.withUnsafeBytes { ResultDigest.of($0) }, encoding: stored.encoding,
                        bytes: stored.bytes)
    }
}

extension SQLiteTraceStore {
    /// `run` with its result ready to be written: found among the results this store wrote
    /// lately (then neither hashed nor compressed), or hashed and compressed, here on the
    /// caller's thread.
    ///
    /// Optional: ``insertRun(_:)``, ``insertRuns(_:)`` and ``insertRunsIndependently(_:)``
    /// prepare the runs that are not, before their transaction. A caller that hands runs to
    /// another thread to be written (the service's run writer) prepares them on its own thread
    /// first, so that the writing thread only writes. Changing the run's `result` afterwards
    /// undoes the preparation.
    public func prepare(_ run: NewRun) -> NewRun { recentResults.prepare(run) }

    func prepare(_ runs: [NewRun]) -> [NewRun] { recentResults.prepare(runs) }
}

extension RecentResults {
    /// `run` with its result found among these, or hashed and compressed (both engines'
    /// `TraceStore.prepare(_:)`).
    package func prepare(_ run: NewRun) -> NewRun {
        guard run.preparedResult == nil else { return run }
        var run = run
        if let id = id(sceneID: run.sceneID, bytes: run.result) {
            run.preparedResult = .recent(id: id)
        } else {
            missed()
            run.preparedResult = .encoding(run.result)
        }
        return run
    }

    /// Runs prepared as ``prepare(_:)`` does, each distinct result compressed once: a replay
    /// stores thousands of runs at once, most of them with equal results, which the transaction
    /// then shares (`RecentResults.Sharing`) but which would each be compressed here.
    package func prepare(_ runs: [NewRun]) -> [NewRun] {
        struct Key: Hashable {
            var sceneID: String
            var digest: Int64
        }
        var encoded: [Key: [(result: Data, prepared: PreparedResult)]] = [:]
        return runs.map { run in
            guard run.preparedResult == nil else { return run }
            var run = run
            if let id = id(sceneID: run.sceneID, bytes: run.result) {
                run.preparedResult = .recent(id: id)
                return run
            }
            missed()
            let key = Key(sceneID: run.sceneID, digest: run.resultDigest)
            if let same = encoded[key]?.first(where: { $0.result == run.result }) {
                run.preparedResult = same.prepared
                return run
            }
            let stored = ResultCompression.encode(run.result)
            let prepared = PreparedResult.encoded(digest: key.digest, encoding: stored.encoding, bytes: stored.bytes)
            encoded[key, default: []].append((run.result, prepared))
            run.preparedResult = prepared
            return run
        }
    }
}
