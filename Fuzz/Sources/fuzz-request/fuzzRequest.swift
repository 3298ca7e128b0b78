import FuzzHarness

/// libFuzzer's entry point: a dispatch request, decoded, validated, dispatched and written (RequestHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    RequestHarness.run(fuzzInput(data, size))
}
