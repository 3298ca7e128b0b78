import FuzzHarness

/// libFuzzer's entry point: a test file, read, dispatched and checked against its `expect` (CaseHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCase(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    CaseHarness.run(fuzzInput(data, size))
}
