import Foundation
import TestSupport
import Testing
@testable import TapTraceHTTP

/// Worker threads bound to a processor each (`pinsWorkerThreads`, `ThreadAffinity`).
@Suite struct ThreadAffinityTests {
    /// A router whose one route tells the processors the serving thread may run on.
    private func affinityRouter() -> Router {
        let router = Router()
        router.get("/cpus") { _, _ in .text(allowedProcessorList()) }
        return router
    }

    @Test func oneProcessorPerWorkerOrNone() {
        #expect(ThreadAffinity.assignment(workers: 2, allowed: [0, 1]) == [0, 1])
        #expect(ThreadAffinity.assignment(workers: 2, allowed: [2, 5, 7]) == [2, 5])
        #expect(ThreadAffinity.assignment(workers: 1, allowed: [0, 1]) == [0])
        // More workers than processors, or a single processor: nobody is bound.
        #expect(ThreadAffinity.assignment(workers: 3, allowed: [0, 1]) == nil)
        #expect(ThreadAffinity.assignment(workers: 1, allowed: [0]) == nil)
        #expect(ThreadAffinity.assignment(workers: 2, allowed: []) == nil)
    }

    #if os(Linux)
    @Test func allowedProcessorsAreTheKernels() {
        let allowed = ThreadAffinity.allowedProcessors()
        #expect(!allowed.isEmpty)
        #expect(allowed == allowed.sorted())
        // "0-1" or "0,1": compare as sets of numbers.
        var fromKernel: [Int] = []
        for part in allowedProcessorList().split(separator: ",") {
            let bounds = part.split(separator: "-").compactMap { Int($0) }
            fromKernel += bounds.count == 2 ? Array(bounds[0]...bounds[1]) : bounds
        }
        #expect(allowed == fromKernel)
    }

    @Test func aPinnedThreadRunsOnItsProcessorOnly() {
        let target = ThreadAffinity.allowedProcessors().last ?? 0
        let seen = Shared("")
        let thread = TestThread {
            #expect(ThreadAffinity.pinCurrentThread(to: target))
            seen.update { $0 = allowedProcessorList() }
        }
        #expect(thread.join(timeoutSeconds: 10))
        #expect(seen.current == "\(target)")
        #expect(!ThreadAffinity.pinCurrentThread(to: -1))
    }

    @Test func eachWorkerThreadIsBoundToItsOwnProcessor() throws {
        let allowed = ThreadAffinity.allowedProcessors()
        guard allowed.count >= 2 else { return }  // a single processor: nothing to bind (see above)
        try withServer(testConfiguration { $0.threads = 2; $0.pinsWorkerThreads = true }, router: affinityRouter()) { server in
            #expect(server.workerProcessors == [allowed[0], allowed[1]])
            // Two connections, one per worker (ConnectionAcceptor), each kept alive.
            let clients = try (0..<2).map { _ in try RawHTTPClient(port: server.port) }
            let lists = try clients.map { String(decoding: try $0.request("GET", "/cpus").body, as: UTF8.self) }
            #expect(lists == ["\(allowed[0])", "\(allowed[1])"])
        }
    }

    @Test func unboundWorkersMayRunAnywhere() throws {
        let everywhere = allowedProcessorList()
        try withServer(testConfiguration { $0.threads = 2; $0.pinsWorkerThreads = false }, router: affinityRouter()) { server in
            #expect(server.workerProcessors == nil)
            let client = try RawHTTPClient(port: server.port)
            #expect(String(decoding: try client.request("GET", "/cpus").body, as: UTF8.self) == everywhere)
        }
    }
    #endif
}
