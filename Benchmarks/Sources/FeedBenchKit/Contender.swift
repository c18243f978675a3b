import AsyncPaging

/// The four implementations every scenario runs, side by side.
public enum Contender: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `FeedController`, the engine.
    case engine
    /// Baseline 1: seed 000 ported plainly to Swift concurrency (``SeedPortFeed``).
    case seedPort = "seed-port"
    /// Baseline 2: seed 000's improved view model in OpenCombine (``CombinePortFeed``).
    case combinePort = "combine-port"
    /// Baseline 3: a plain array and one `AsyncStream` (``FloorFeed``).
    case floor

    public var description: String { rawValue }
}

/// The engine as the benchmarks configure it: pages of 20, and the initial load either on (as
/// an app would create it) or off (so that a scenario starts the first load itself).
public func engineConfiguration(loadsInitialPage: Bool) -> FeedConfiguration {
    do {
        return try FeedConfiguration(pageSize: benchPageSize, loadsInitialPage: loadsInitialPage)
    } catch {
        fatalError("a valid configuration: \(error)")
    }
}

/// The engine over the benchmarks' items, with the sources' `Int` cursors.
public typealias EngineFeed<Item: BenchItem> = FeedController<Item, Int>
