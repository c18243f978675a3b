// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "AsyncPaging",
    platforms: [
        .macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "AsyncPaging", targets: ["AsyncPaging"]),
        .library(name: "AsyncPagingTesting", targets: ["AsyncPagingTesting"]),
        .library(name: "AsyncPagingUI", targets: ["AsyncPagingUI"]),
        .library(name: "AsyncPagingHTTP", targets: ["AsyncPagingHTTP"]),
        .library(name: "AsyncPagingFileStore", targets: ["AsyncPagingFileStore"]),
        .executable(name: "feed-demo", targets: ["FeedDemo"]),
    ],
    targets: [
        .target(name: "AsyncPaging", swiftSettings: strictSettings),
        .target(
            name: "AsyncPagingTesting",
            dependencies: ["AsyncPaging"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "AsyncPagingUI",
            dependencies: ["AsyncPaging"],
            swiftSettings: strictSettings
        ),
        // HTTP page sources over the toolchain's Foundation (URLSession; FoundationNetworking on
        // Linux). The engine itself imports no Foundation.
        .target(
            name: "AsyncPagingHTTP",
            dependencies: ["AsyncPaging"],
            swiftSettings: strictSettings
        ),
        // A session store in files (FileFeedSessionStore): JSON lines need Foundation's coders,
        // which the engine does not import. No package dependency.
        .target(
            name: "AsyncPagingFileStore",
            dependencies: ["AsyncPaging"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "FeedDemo",
            dependencies: ["AsyncPaging", "AsyncPagingUI", "AsyncPagingHTTP"],
            path: "Sources/feed-demo",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AsyncPagingTests",
            dependencies: ["AsyncPaging", "AsyncPagingTesting", "AsyncPagingFileStore"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AsyncPagingHTTPTests",
            dependencies: ["AsyncPagingHTTP", "AsyncPaging", "AsyncPagingTesting"],
            exclude: ["Fixtures"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "AsyncPagingUITests",
            dependencies: ["AsyncPagingUI", "AsyncPaging", "AsyncPagingTesting"],
            swiftSettings: strictSettings
        ),
    ]
)
