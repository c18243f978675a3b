// swift-tools-version: 6.1
import PackageDescription

// An example service: one FeedController per client session, kept in a FeedSessionRegistry,
// served over HTTP by Hummingbird 2. A package of its own, so the library keeps no
// dependencies. See README.md here.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "FeedService",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AsyncPaging", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
    ],
    targets: [
        // The application: routes, sessions, the page sources. Built by one function used by
        // the executable and the tests.
        .target(
            name: "FeedServiceApp",
            dependencies: [
                .product(name: "AsyncPaging", package: "AsyncPaging"),
                .product(name: "AsyncPagingHTTP", package: "AsyncPaging"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "FeedService",
            dependencies: ["FeedServiceApp"],
            swiftSettings: strictSettings
        ),
        // A measuring baseline: POST /sessions/:id/more over FakeFeedAPI keeping only a cursor
        // per session (load-ratio.sh drives it beside the service).
        .executableTarget(
            name: "CursorBaseline",
            dependencies: [
                "FeedServiceApp",
                .product(name: "AsyncPaging", package: "AsyncPaging"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
        // The heap of an idle session with its first page (Benchmarks/README.md, "Sessions").
        .target(name: "CHeapBytes"),
        .executableTarget(
            name: "SessionHeap",
            dependencies: ["FeedServiceApp", "CHeapBytes"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FeedServiceTests",
            dependencies: [
                "FeedServiceApp",
                .product(name: "AsyncPagingTesting", package: "AsyncPaging"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
