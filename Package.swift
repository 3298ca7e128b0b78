// swift-tools-version:6.0
import PackageDescription

// Profile-guided optimisation (decision 69): a release build of our modules is optimised with
// the execution profile in pgo/taptrace.profdata, which `pgo/train` records from an instrumented
// build (TAPTRACE_PGO=train) running the benchmarks and every endpoint. Debug builds (the tests)
// are compiled as before, and so is everything with a compiler older than 6.3, which lacks IR
// profiles. The flags are the frontend's (`-ir-profile-use`); the 6.3 driver does not pass on its
// own spelling of them.
#if compiler(>=6.3)
let profileGuided: [SwiftSetting] = [
    .unsafeFlags(
        ["-Xfrontend", Context.environment["TAPTRACE_PGO"] == "train"
            ? "-ir-profile-generate"
            : "-ir-profile-use=\(Context.packageDirectory)/pgo/taptrace.profdata"],
        .when(configuration: .release)
    ),
]
#else
let profileGuided: [SwiftSetting] = []
#endif

// Layers (docs/architecture.md): TapTraceCore is the pure engine with no dependency and no I/O;
// every other module depends on it, never the reverse.
let package = Package(
    name: "TapTrace",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "taptrace", targets: ["taptrace"]),
        .library(name: "TapTraceCore", targets: ["TapTraceCore"]),
        .library(name: "TapTraceHTTP", targets: ["TapTraceHTTP"]),
        .library(name: "TapTraceService", targets: ["TapTraceService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // libm for sqrt/rounding: the standard library calls it on Linux without importing it.
        .target(name: "TapTraceCore", swiftSettings: profileGuided, linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        .executableTarget(
            name: "taptrace",
            dependencies: [
                "TapTraceCore",
                "TapTraceImport",
                "TapTraceService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: profileGuided
        ),
        .executableTarget(
            name: "taptrace-bench",
            dependencies: ["TapTraceCore", "TapTraceImport", "TapTraceStore", "TapTraceService", "TapTraceHTTP", "CCallgrind"],
            path: "bench/taptrace-bench",
            swiftSettings: profileGuided
        ),
        // Valgrind's callgrind client requests as C functions (no-ops without valgrind's headers).
        .target(name: "CCallgrind", path: "bench/CCallgrind"),
        // Importers of real view dumps (recursiveDescription, Appium page source) into scenes.
        .target(name: "TapTraceImport", dependencies: ["TapTraceCore"], swiftSettings: profileGuided),
        .testTarget(name: "TapTraceImportTests", dependencies: ["TapTraceImport", "TapTraceCore"], exclude: ["Fixtures"]),
        .testTarget(
            name: "TapTraceCoreTests",
            dependencies: ["TapTraceCore", "TestSupport"],
            exclude: ["Conformance"]
        ),
        // HTTP layer on libmicrohttpd; independent of TapTraceCore.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "TapTraceHTTP", dependencies: ["CMicroHTTPD", "CThreadAffinity"], swiftSettings: profileGuided),
        // sched_setaffinity for the worker threads, SCHED_IDLE for the Checkpointer's, SCHED_BATCH
        // for the run writer's (all need _GNU_SOURCE, which Swift's Glibc lacks).
        .target(name: "CThreadAffinity"),
        .testTarget(name: "TapTraceHTTPTests", dependencies: ["TapTraceHTTP", "TestSupport"]),
        // What the tests share: a raw-socket HTTP/1.1 client, temporary directories (the CLI's,
        // the store's and the service's tests), and what thread tests read from /proc.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // TapTraceStore: SQLite persistence (scenes, versions, runs). Deliberately independent of TapTraceCore.
        .target(
            name: "TapTraceStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API itself: the Checkpointer's sync of the database file, the run row insert.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CZstd",
                "CThreadAffinity",
            ],
            swiftSettings: profileGuided
        ),
        // Zstandard, for the stored results (decision 49).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        .testTarget(name: "TapTraceStoreTests", dependencies: ["TapTraceStore", "TestSupport"]),
        // TapTraceService: the REST API of contract §6 (engine + HTTP + store). Its integration
        // tests start the built `taptrace serve` binary (which `swift test` builds first).
        .target(
            name: "TapTraceService",
            dependencies: ["TapTraceCore", "TapTraceHTTP", "TapTraceStore", "TapTraceImport", "CThreadAffinity"],
            swiftSettings: profileGuided
        ),
        .testTarget(name: "TapTraceServiceTests", dependencies: ["TapTraceService", "TapTraceCore", "TapTraceStore", "TestSupport"]),
    ]
)
