import AsyncPaging
import AsyncPagingUI

/// The interactive mode: a scrolling feed in the terminal, driven by `AsyncPagingUI`'s
/// ``FeedModel`` the way a phone screen is: rows on screen go to the model's
/// ``PrefetchTrigger``, Up at the top pulls the ``PullGesture`` header, and the screen is drawn
/// from the model's items, status and header.
@MainActor
struct InteractiveApp {
    let options: ResolvedOptions

    /// Runs until the person quits; returns the exit code.
    func run() async -> Int32 {
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
        let controller = FeedController<FeedItem, FeedCursor>(source: api, clock: ContinuousClock(), configuration: configuration)
        let model = FeedModel(
            controller: controller,
            prefetch: PrefetchTrigger(prefetchDistance: options.prefetchDistance),
            header: .header(threshold: InteractiveSession.pullThreshold),
            footer: nil)
        let input = InputSource(frame: InteractiveSession.frame)
        let session = InteractiveSession(model: model, api: api, colors: Tone.colorsEnabled(for: 1))
        await session.run(input.inputs)

        input.stop()
        await controller.close()
        rawMode.restore()
        Terminal.output("feed-demo: bye. \(model.items.count) posts loaded; api: \(api.stats)\n")
        return 0
    }
}
