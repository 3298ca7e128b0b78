#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import TapTraceHTTP

@Suite struct ShutdownSignalTests {
    // SIGUSR2 rather than SIGINT/SIGTERM so that nothing else in the test process reacts.
    @Test func waitReturnsTheSignalThatArrived() {
        let shutdown = ShutdownSignal(signals: [SIGUSR2])
        defer { shutdown.cancel() }
        #expect(shutdown.wait(timeoutSeconds: 0.05) == nil)
        kill(getpid(), SIGUSR2)
        #expect(shutdown.wait(timeoutSeconds: 20) == SIGUSR2)
        #expect(shutdown.wait() == SIGUSR2)
    }
}
