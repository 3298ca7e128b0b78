// swift-tools-version:6.0
import PackageDescription

// A test suite that runs TapTrace's engine in-process: no server, no storage, no network.
// It depends on the repository by path; a harness elsewhere names it by URL and version:
//   .package(url: "https://…/taptrace.git", from: "0.1.0")
let package = Package(
    name: "InProcessExample",
    dependencies: [.package(name: "TapTrace", path: "../..")],
    targets: [
        .testTarget(name: "CheckoutTests", dependencies: [
            .product(name: "TapTraceCore", package: "TapTrace"),
            .product(name: "TapTraceFormats", package: "TapTrace"),
        ]),
    ]
)
