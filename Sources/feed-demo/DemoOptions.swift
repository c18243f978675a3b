import Foundation

/// Everything the command line decides.
///
/// `nil` means "not given": the defaults differ between the interactive and the script mode,
/// and ``resolved(for:)`` fills them in once the mode is known.
struct DemoOptions: Sendable, Equatable {
    enum Mode: Sendable, Equatable, CustomStringConvertible {
        case interactive
        case script

        var description: String { self == .interactive ? "interactive" : "script" }
    }

    var forceScript = false
    var showHelp = false
    var pageSize: Int?
    var totalItems: Int?
    var latency: Duration?
    var failureRate: Double?
    var seed: UInt64?
    var prefetchDistance: Int?
    /// `--open-at`: the post (0 = the newest) the simulated feed opens at, in the middle of its
    /// data, so that it loads newer posts above and older ones below.
    var openAt: Int?
    /// `--url` and `--scheme`: page a real HTTP API instead of the simulated one.
    var url: URL?
    var scheme: HTTPScheme?

    static let defaultPageSize = 15
    static let defaultSeed: UInt64 = 42
    static let defaultPrefetchDistance = 3
    static func defaultTotalItems(_ mode: Mode) -> Int { mode == .interactive ? 100 : 60 }
    static func defaultLatency(_ mode: Mode) -> Duration { mode == .interactive ? .milliseconds(700) : .milliseconds(40) }
    /// Off in both modes: random failures are asked for with `--failure-rate`, and the first
    /// screen then says so; `f` fails one request on demand.
    static let defaultFailureRate = 0.0

    /// The options with every default filled in for `mode`, or why they cannot run in it.
    func resolved(for mode: Mode) throws(ArgumentError) -> ResolvedOptions {
        let pageSize = pageSize ?? DemoOptions.defaultPageSize
        let totalItems = totalItems ?? DemoOptions.defaultTotalItems(mode)
        var http: HTTPFeed?
        if let url {
            if forceScript {
                throw ArgumentError("--script runs the simulated scenario; --url pages a real API: give one of them")
            }
            let simulatedOnly: [(String, Bool)] = [
                ("--total-items", self.totalItems != nil), ("--latency", latency != nil),
                ("--failure-rate", failureRate != nil), ("--seed", seed != nil), ("--open-at", openAt != nil),
            ]
            if let flag = simulatedOnly.first(where: \.1)?.0 {
                throw ArgumentError("\(flag) is for the simulated API; with --url the real API decides")
            }
            http = HTTPFeed(url: url, scheme: scheme ?? .default)
        } else if scheme != nil {
            throw ArgumentError("--scheme says how the API of --url pages; give --url too")
        }
        if let openAt, openAt >= totalItems {
            throw ArgumentError(
                "--open-at must be below --total-items (\(totalItems)): the feed has posts 0 to \(totalItems - 1), got \(openAt)")
        }
        if mode == .script, http == nil {
            if failureRate != nil {
                throw ArgumentError(
                    "--failure-rate is not used in script mode (stdout is not a terminal, or --script was "
                        + "given): the scenario injects its own failure so that its checks are deterministic")
            }
            if let openAt, openAt < 1 {
                throw ArgumentError("script mode opens the feed at --open-at and loads newer posts above it: give 1 or more")
            }
            let minimum = 3 * pageSize + 1
            if totalItems < minimum {
                throw ArgumentError(
                    "script mode needs --total-items of at least 3 × page size + 1 "
                        + "(\(minimum) for a page size of \(pageSize)), got \(totalItems)")
            }
        }
        return ResolvedOptions(
            mode: mode,
            settings: SimulatedFeedAPI.Settings(
                seed: seed ?? DemoOptions.defaultSeed,
                totalItems: totalItems,
                latency: latency ?? DemoOptions.defaultLatency(mode),
                failureRate: failureRate ?? DemoOptions.defaultFailureRate),
            pageSize: pageSize,
            prefetchDistance: prefetchDistance ?? DemoOptions.defaultPrefetchDistance,
            http: http,
            openAt: openAt)
    }
}
