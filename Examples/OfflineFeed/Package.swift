// swift-tools-version: 6.1
import PackageDescription

// An example app whose list is read from a local SQLite database (GRDB): the database is the
// source of truth, and a mediator fills it from the network at the list's ends and on refresh.
// A package of its own, so the library keeps no dependencies. See README.md here.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "OfflineFeed",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AsyncPaging", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
    ],
    targets: [
        // The database, its page source, the mediator and the feed that ties them together.
        .target(
            name: "OfflineFeedKit",
            dependencies: [
                .product(name: "AsyncPaging", package: "AsyncPaging"),
                .product(name: "AsyncPagingHTTP", package: "AsyncPaging"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "offline-feed",
            dependencies: ["OfflineFeedKit"],
            swiftSettings: strictSettings
        ),
        // Callgrind's client requests (valgrind/callgrind.h; no-ops without valgrind's headers).
        .target(name: "CCallgrind"),
        // The figure of Benchmarks/README.md: start to the first list read from the database,
        // with no network (first-list.sh runs it, timed and under callgrind).
        .executableTarget(
            name: "offline-first-list",
            dependencies: ["OfflineFeedKit", "CCallgrind"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "OfflineFeedTests",
            dependencies: [
                "OfflineFeedKit",
                .product(name: "AsyncPagingTesting", package: "AsyncPaging"),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
