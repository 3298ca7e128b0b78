import Foundation

/// A value several test threads write. Shared by the HTTP and service tests.
public final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    public init(_ value: Value) { self.value = value }
    public func update(_ body: (inout Value) -> Void) { lock.lock(); body(&value); lock.unlock() }
    public var current: Value { lock.lock(); defer { lock.unlock() }; return value }
}
