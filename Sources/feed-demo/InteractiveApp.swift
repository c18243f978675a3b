import AsyncPaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The interactive mode: a scrolling feed in the terminal.
///
/// The main thread runs a small loop: wait up to a frame for a key (`poll`), handle the keys,
/// draw the rows that changed. It never waits on the controller: it sends fire-and-forget
/// requests with ``FeedController/send(_:)`` and draws whatever ``FeedScreenModel`` holds,
/// which tasks on the concurrency pool keep up to date from the controller's streams.
struct InteractiveApp {
    let options: ResolvedOptions

    /// Runs until the person quits; returns the exit code.
    func run() -> Int32 {
        let api = SimulatedFeedAPI(settings: options.settings)
        let configuration: FeedConfiguration
        do {
            configuration = try FeedConfiguration(pageSize: options.pageSize)
        } catch {
            Terminal.writeError("feed-demo: invalid configuration: \(error)\n")
            return 2
        }
        let rawMode = RawMode()
        guard rawMode.enable() else {
            Terminal.writeError("feed-demo: cannot put the terminal in raw mode; try --script\n")
            return 1
        }
        let feed = FeedController<FeedItem, FeedCursor>(source: api, clock: ContinuousClock(), configuration: configuration)
        let model = FeedScreenModel(snapshot: feed.currentSnapshot, status: feed.currentStatus)
        model.follow(feed)

        var session = InteractiveSession(feed: feed, api: api, model: model, prefetchDistance: options.prefetchDistance)
        session.loop()

        feed.send(.close)
        rawMode.restore()
        let state = model.current
        Terminal.output("feed-demo: bye. \(state.snapshot.count) posts loaded; api: \(api.stats)\n")
        return 0
    }
}
