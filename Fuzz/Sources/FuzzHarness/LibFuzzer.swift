/// The bytes libFuzzer hands `LLVMFuzzerTestOneInput`, as the arrays TapTrace's readers take.
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}
