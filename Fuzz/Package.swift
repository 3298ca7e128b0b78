// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for TapTrace's input paths (docs/fuzzing.md). `scripts/fuzz` builds them
// with `--sanitize=fuzzer --sanitize=address`, which SwiftPM applies to every target it builds,
// TapTrace's own modules included (instrumented for coverage and checked by AddressSanitizer),
// and not to the build's host tools. No flag is in a manifest: TapTrace's library products carry
// no unsafe flags (docs/decisions.md 65), and this package is never a dependency of anything.
//
// Each executable defines `LLVMFuzzerTestOneInput` and no `main`: libFuzzer's runtime provides
// `main` (SwiftPM compiles executables with `-parse-as-library` under `--sanitize=fuzzer`).
let package = Package(
    name: "TapTraceFuzz",
    dependencies: [.package(name: "TapTrace", path: "..")],
    targets: [
        // What the fuzz targets share: the harness for each input path, and the checks that make
        // a wrong answer a crash.
        .target(name: "FuzzHarness", dependencies: [
            .product(name: "TapTraceCore", package: "TapTrace"),
            .product(name: "TapTraceJSON", package: "TapTrace"),
            .product(name: "TapTraceFormats", package: "TapTrace"),
            .product(name: "TapTraceImport", package: "TapTrace"),
            .product(name: "TapTraceRuns", package: "TapTrace"),
            .product(name: "TapTraceHTTP", package: "TapTrace"),
        ]),
        .executableTarget(name: "fuzz-request", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-case", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-scene", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-json-patch", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-import-recursive-description", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-import-appium", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-import-xcuitest", dependencies: ["FuzzHarness"]),
        .executableTarget(name: "fuzz-http-stream", dependencies: ["FuzzHarness"]),
    ]
)

