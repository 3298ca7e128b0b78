import Foundation
@testable import TapTraceCore
import TapTraceFormats
import Testing

/// A flush names the recognizers that held what it delivers (GV5, GV6). On the checkout tap
/// the began phase is held by scroll.delay (delaysTouchesBegan); once it is delivered, the
/// ended phase queued behind it is held by cardTap (delaysTouchesEnded, still .possible) until
/// cardTap fails: the second flush must name cardTap, not the first phase's holder.
struct FlushNoteTests {
    @Test func eachFlushNamesWhatHeldItsPhases() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("examples/checkout.request.json")
        let result = try TapTrace.dispatch(json: Array(try Data(contentsOf: url)))
        let flushes = result.trace.filter { $0.marker == .flush }.compactMap(\.note)
        #expect(flushes.count == 2)
        #expect(flushes.first?.contains("by scroll.delay;") == true)
        #expect(flushes.last?.contains("by cardTap;") == true)
    }
}
