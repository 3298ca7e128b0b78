import FuzzHarness

/// libFuzzer's entry point: the bytes of one client connection, read by the relay's request
/// stream check (RequestStreamHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPStream(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    RequestStreamHarness.run(fuzzInput(data, size))
}
