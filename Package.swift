// swift-tools-version:6.0
import PackageDescription

// Modules (docs/architecture.md), each depending only on those below it:
//
//   taptrace (CLI)  ──  TapTraceService ── TapTraceHTTP, TapTraceStore
//                           │
//        TapTraceImport, TapTraceRuns ── TapTraceFormats ── TapTraceCore (the UIKit engine)
//                                                       └── TapTraceJSON (JSON, no UIKit)
//
// TapTraceCore and TapTraceJSON depend on nothing (not even Foundation). No target carries
// unsafe flags, so that a harness can depend on the library products by version; release
// builds are optimised with the execution profile through `scripts/build-release`.
let package = Package(
    name: "TapTrace",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "taptrace", targets: ["taptrace"]),
        .library(name: "TapTraceCore", targets: ["TapTraceCore"]),
        .library(name: "TapTraceJSON", targets: ["TapTraceJSON"]),
        .library(name: "TapTraceFormats", targets: ["TapTraceFormats"]),
        .library(name: "TapTraceRuns", targets: ["TapTraceRuns"]),
        .library(name: "TapTraceImport", targets: ["TapTraceImport"]),
        .library(name: "TapTraceStore", targets: ["TapTraceStore"]),
        .library(name: "TapTraceStorePostgres", targets: ["TapTraceStorePostgres"]),
        .library(name: "TapTraceHTTP", targets: ["TapTraceHTTP"]),
        .library(name: "TapTraceService", targets: ["TapTraceService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // The UIKit engine: hit-testing, responders, recognizers, controls, dispatch, the trace.
        // libm for sqrt/rounding: the standard library calls it on Linux without importing it.
        .target(name: "TapTraceCore", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // JSON: an iterative parser (`JSONTape`), deterministic writers. Knows nothing of UIKit.
        .target(name: "TapTraceJSON"),
        // The contract's documents in JSON and text: scenes, touches and knobs read with every
        // issue's pointer; results, traces, reports and problems written.
        .target(name: "TapTraceFormats", dependencies: ["TapTraceCore", "TapTraceJSON"]),
        // Stored runs: outcome and digest, comparison, alignment, Chrome trace export.
        .target(name: "TapTraceRuns", dependencies: ["TapTraceCore", "TapTraceFormats", "TapTraceJSON"]),
        // Importers of real view dumps (recursiveDescription, Appium page source) into scenes.
        .target(name: "TapTraceImport", dependencies: ["TapTraceCore", "TapTraceFormats", "TapTraceJSON"]),
        // HTTP server on libmicrohttpd; knows nothing of the engine.
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "TapTraceHTTP", dependencies: ["CMicroHTTPD", "CThreadAffinity", "CEventPoll"]),
        // epoll, eventfd and socket pairs for the connection relay, wrapped in plain C types
        // (Swift's Glibc module lacks the first two).
        .target(name: "CEventPoll"),
        // sched_setaffinity for the worker threads, SCHED_IDLE for the Checkpointer's, SCHED_BATCH
        // for the run writer's (all need _GNU_SOURCE, which Swift's Glibc lacks).
        .target(name: "CThreadAffinity"),
        // SQLite persistence (scenes, versions, runs); knows nothing of the engine. The SQL of
        // migrations/sqlite/ is compiled in by the EmbedFiles plugin.
        .target(
            name: "TapTraceStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API itself: the Checkpointer's sync of the database file, the run row insert.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                "CZstd",
                "CThreadAffinity",
            ],
            plugins: ["EmbedFiles"]
        ),
        // The same store on a shared PostgreSQL (issue 36, decision 141), through libpq; the SQL of
        // migrations/postgres/ is compiled in by the EmbedFiles plugin.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "TapTraceStorePostgres", dependencies: ["TapTraceStore", "CLibPQ"], plugins: ["EmbedFiles"]),
        // Zstandard, for the stored results (decision 49).
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd", providers: [.apt(["libzstd-dev"])]),
        // `taptrace health` against a server with --tls-cert (libmicrohttpd's TLS is GnuTLS too).
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
        // The REST API of contract §6: engine, formats and runs behind HTTP, with the store. The
        // viewer (viewer/) and openapi.yaml are compiled in by the EmbedFiles plugin.
        .target(
            name: "TapTraceService",
            dependencies: ["TapTraceCore", "TapTraceJSON", "TapTraceFormats", "TapTraceRuns", "TapTraceImport",
                           "TapTraceHTTP", "TapTraceStore", "CThreadAffinity"],
            plugins: ["EmbedFiles"]
        ),
        // Files of the repository compiled into the binary at build time (no files beside it).
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["taptrace-embed"]),
        .executableTarget(name: "taptrace-embed", path: "Plugins/EmbedTool"),
        .executableTarget(
            name: "taptrace",
            dependencies: [
                "TapTraceCore", "TapTraceJSON", "TapTraceFormats", "TapTraceImport", "TapTraceHTTP", "TapTraceStore", "TapTraceStorePostgres",
                "TapTraceRuns", "TapTraceService", "CGnuTLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Benchmarks: wall-clock by hand, instruction counts guarded by bench/guard.
        .executableTarget(
            name: "taptrace-bench",
            dependencies: ["TapTraceCore", "TapTraceJSON", "TapTraceFormats", "TapTraceImport", "TapTraceStore",
                           "TapTraceHTTP", "TapTraceService", "CCallgrind"],
            path: "bench/taptrace-bench"
        ),
        // Valgrind's callgrind client requests as C functions (no-ops without valgrind's headers).
        .target(name: "CCallgrind", path: "bench/CCallgrind"),

        // What the tests share: a raw-socket HTTP/1.1 client, temporary directories, what thread
        // tests read from /proc.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Scenes written as JSON and shorthands for results, for the engine's and the runs' tests.
        .target(name: "SceneTestSupport", dependencies: ["TapTraceCore", "TapTraceFormats"], path: "Tests/SceneTestSupport"),
        .testTarget(name: "TapTraceJSONTests", dependencies: ["TapTraceJSON"]),
        .testTarget(name: "EmbedToolTests", dependencies: ["taptrace-embed"]),
        .testTarget(
            name: "TapTraceCoreTests",
            dependencies: ["TapTraceCore", "TapTraceFormats", "TapTraceJSON", "TapTraceRuns", "SceneTestSupport", "TestSupport"],
            exclude: ["Conformance"]
        ),
        .testTarget(name: "TapTraceRunsTests",
                    dependencies: ["TapTraceRuns", "TapTraceFormats", "TapTraceCore", "TapTraceJSON", "SceneTestSupport"]),
        .testTarget(name: "TapTraceImportTests", dependencies: ["TapTraceImport", "TapTraceFormats", "TapTraceCore", "TapTraceJSON"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "TapTraceHTTPTests", dependencies: ["TapTraceHTTP", "TestSupport"]),
        .testTarget(name: "TapTraceStoreTests", dependencies: ["TapTraceStore", "TapTraceStorePostgres", "TestSupport"]),
        // The service's tests start the built `taptrace serve` binary (which `swift test` builds first).
        .testTarget(
            name: "TapTraceServiceTests",
            dependencies: ["TapTraceService", "TapTraceCore", "TapTraceJSON", "TapTraceFormats", "TapTraceRuns", "TapTraceHTTP",
                           "TapTraceStore", "TestSupport"]
        ),
    ]
)
