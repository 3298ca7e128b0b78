import FuzzHarness
import TapTraceImport

/// libFuzzer's entry point: an XCUITest debugDescription (ImportHarness).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportXCUITest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ImportHarness.run(.xcuitest, fuzzInput(data, size))
}
