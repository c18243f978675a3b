// swift-tools-version: 6.1
import PackageDescription

// The benchmarks of AsyncPaging: a package of their own, so the library itself keeps no
// dependencies. See README.md here for what is measured and how to run it.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "AsyncPagingBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "AsyncPaging", path: ".."),
        .package(
            url: "https://github.com/ordo-one/package-benchmark.git", exact: "1.38.1",
            traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    ],
    targets: [
        // The engine's rivals (seed port, Combine-style port, floor) and every scenario, shared
        // by the package-benchmark suite and the side-by-side table.
        .target(
            name: "FeedBenchKit",
            dependencies: [
                .product(name: "AsyncPaging", package: "AsyncPaging"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            swiftSettings: strictSettings
        ),
        // Heap figures for the table: glibc's bytes in use, and allocation counts from the
        // malloc-interposer library when run.sh preloads it.
        .target(name: "CHeapStats"),
        // The side-by-side table: every implementation, every scenario, one process.
        .executableTarget(
            name: "feed-bench",
            dependencies: ["FeedBenchKit", "CHeapStats"],
            swiftSettings: strictSettings
        ),
        // Callgrind's client requests (valgrind/callgrind.h), callable from Swift.
        .target(name: "CCallgrind"),
        // The instruction-count suite (instructions.sh runs it under callgrind) and the heap
        // and growth figures beside it.
        .executableTarget(
            name: "feed-instructions",
            dependencies: [
                "FeedBenchKit", "CHeapStats", "CCallgrind",
                .product(name: "AsyncPaging", package: "AsyncPaging"),
                .product(name: "AsyncPagingUI", package: "AsyncPaging"),
            ],
            swiftSettings: strictSettings
        ),
        // Export and restore of a 100,000-post feed beside loading its pages (issue 13).
        .executableTarget(
            name: "feed-restore",
            dependencies: [.product(name: "AsyncPaging", package: "AsyncPaging")],
            swiftSettings: strictSettings
        ),
        // The package-benchmark suite, whose malloc counts are checked against Thresholds/.
        .executableTarget(
            name: "FeedBenchmarks",
            dependencies: [
                "FeedBenchKit",
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/FeedBenchmarks",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
    ]
)
