/// Pieces of compact JSON written once and copied by number many times: a scene's object refs
/// (`SceneObjects`), the `,"selector":…,"swift":…` of UIKit's selectors, argument and knob
/// names. The bytes live back to back in memory the table owns, so that copying one takes
/// neither a reference count (an array of arrays retains the piece it hands out) nor escaping.
/// Immutable once built.
public final class JSONFragments: @unchecked Sendable {
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    /// Fragment k is `bytes[starts[k]..<starts[k + 1]]`.
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    public let count: Int

    /// `count` fragments, fragment k written by `write(k, &emitter)`.
    public init(count: Int, bytesPerFragment: Int = 48, _ write: (Int, inout ByteEmitter) -> Void) {
        self.count = count
        starts = .allocate(capacity: count + 1)
        var e = ByteEmitter(capacity: bytesPerFragment * count)
        for k in 0..<count {
            starts[k] = e.position
            write(k, &e)
        }
        starts[count] = e.position
        bytes = .allocate(capacity: max(1, e.position))
        e.copyBytes(to: bytes)
    }

    deinit {
        bytes.deallocate()
        starts.deallocate()
    }

    /// Fragment k at the end of `e`.
    @inlinable @inline(__always)
    public func write(_ k: Int, _ e: inout ByteEmitter) {
        e.append(UnsafeBufferPointer(start: bytes + starts[k], count: starts[k + 1] - starts[k]))
    }
}
