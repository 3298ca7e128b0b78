// swift-tools-version: 6.0
// TapTrace's Swift client: its own package, so that a test harness depends on the OpenAPI
// runtime and a URLSession transport only, not on the server's GRDB or libmicrohttpd.
// The OpenAPIGenerator plugin generates `Client` and the types from the repository's
// openapi.yaml (symlinked into Sources/TapTraceClient) on every build.
import PackageDescription

let package = Package(
    name: "TapTraceClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "TapTraceClient", targets: ["TapTraceClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "TapTraceClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [
                .plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"),
            ]
        ),
        .testTarget(
            name: "TapTraceClientTests",
            dependencies: ["TapTraceClient"]
        ),
    ]
)
