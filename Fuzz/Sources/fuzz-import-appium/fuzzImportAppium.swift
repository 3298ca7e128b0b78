import FuzzHarness
import TapTraceImport

/// libFuzzer's entry point: an Appium page source (ImportHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportAppium(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ImportHarness.run(.appium, fuzzInput(data, size))
}
