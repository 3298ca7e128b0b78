import FuzzHarness

/// libFuzzer's entry point: `[document, patch]`, the patch read and applied (PatchHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPatch(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    PatchHarness.run(fuzzInput(data, size))
}
