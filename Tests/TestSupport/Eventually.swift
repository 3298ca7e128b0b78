import Foundation

/// Polls `condition` until it holds or `timeoutSeconds` pass, and says whether it held: for
/// what another thread does a moment later (libmicrohttpd noting a closed connection, a
/// Checkpointer's thread taking its class or copying pages).
public func eventually(timeoutSeconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeoutSeconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(2_000)
    }
    return condition()
}
