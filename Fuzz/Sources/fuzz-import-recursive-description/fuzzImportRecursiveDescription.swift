import FuzzHarness
import TapTraceImport

/// libFuzzer's entry point: a recursiveDescription dump with its add-ons (ImportHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportRecursiveDescription(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ImportHarness.run(.recursiveDescription, fuzzInput(data, size))
}
