import FuzzHarness

/// libFuzzer's entry point: a scene document, indexed, hit-tested, explained, audited and written back (SceneHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    SceneHarness.run(fuzzInput(data, size))
}
