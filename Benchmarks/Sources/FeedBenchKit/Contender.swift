import AsyncPaging

/// The four implementations every scenario runs, side by side.
public enum Contender: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `FeedController`, the engine.
    case engine
    /// Baseline 1: seed 000 ported plainly to Swift concurrency (``SeedPortFeed``).
    case seedPort = "seed-port"
    /// Baseline 1b: the seed port as a careful developer writes it, appending each page to the
    /// list in place (`items.append(contentsOf:)`) instead of rebuilding it (``SeedPortFeed``
    /// with `appendsInPlace`). In place only while no subscriber still holds the previous list:
    /// a screen that keeps the list it shows makes every append copy, as in the seed port.
    case appendPort = "append-port"
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
