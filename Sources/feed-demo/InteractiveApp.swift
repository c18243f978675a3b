import AsyncPaging
import AsyncPagingUI

/// The interactive mode: a scrolling feed in the terminal, driven by `AsyncPagingUI`'s
/// ``FeedModel`` the way a phone screen is: rows on screen go to the model's
/// ``PrefetchTrigger``, Up at the top pulls the ``PullGesture`` header, and the screen is drawn
/// from the model's items, status and header. The feed is the simulated API's, or with `--url`
/// a real HTTP API's (``HTTPFeed``).
@MainActor
struct InteractiveApp {
    let options: ResolvedOptions

    /// Runs until the person quits; returns the exit code.
    func run() async -> Int32 {
        do {
            if let http = options.http {
                let transport = CountingTransport()
                let box = try http.makeController(pageSize: options.pageSize, transport: transport)
                return await run(box, backend: transport)
            }
            let api = SimulatedFeedAPI(settings: options.settings)
            let configuration = try FeedConfiguration(pageSize: options.pageSize)
            // --open-at: the first page is the one at that post, in the first edition.
            let controller = FeedController<FeedItem, FeedCursor>(
                source: api, clock: ContinuousClock(), configuration: configuration,
                initialCursor: options.openAt.map { FeedCursor(edition: 1, offset: $0) })
            return await run(
                controller, backend: api, noun: "posts", twoEnded: options.openAt != nil,
                announcement: failureAnnouncement(rate: options.settings.failureRate))
        } catch {
            Terminal.writeError("feed-demo: invalid configuration: \(error)\n")
            return 2
        }
    }

    /// Opens the box: its cursor type is the scheme's.
    private func run<Box: FeedControllerBox>(_ box: Box, backend: CountingTransport) async -> Int32 {
        await run(box.controller, backend: backend, noun: "items")
    }

    /// The first screen's note when the simulated API fails requests at random (`--failure-rate`
    /// above 0; off by default), so that a red line is not taken for a bug.
    private func failureAnnouncement(rate: Double) -> HistoryEntry? {
        guard rate > 0 else { return nil }
        let percent = rate * 100
        let shown = percent.rounded() == percent ? "\(Int(percent))" : "\((percent * 10).rounded() / 10)"
        return HistoryEntry(text: "• simulated failures on: \(shown)% of requests fail (--failure-rate \(rate))", tone: .failure)
    }

    private func run<Item: ListRow & Sendable, Cursor>(
        _ controller: FeedController<Item, Cursor>, backend: any DemoBackend, noun: String, twoEnded: Bool = false,
        announcement: HistoryEntry? = nil
    ) async -> Int32 {
        let rawMode = RawMode()
        guard rawMode.enable() else {
            await controller.close()
            Terminal.writeError("feed-demo: cannot put the terminal in raw mode; try --script\n")
            return 1
        }
        let model = FeedModel(
            controller: controller,
            prefetch: PrefetchTrigger(prefetchDistance: options.prefetchDistance),
            header: .header(threshold: SessionTuning.pullThreshold),
            footer: nil)
        let input = InputSource(frame: SessionTuning.frame)
        let session = InteractiveSession(
            model: model, api: backend, colors: Tone.colorsEnabled(for: 1), noun: noun, twoEnded: twoEnded,
            announcement: announcement)
        await session.run(input.inputs)

        input.stop()
        await controller.close()
        rawMode.restore()
        Terminal.output("feed-demo: bye. \(model.items.count) \(noun) loaded; api: \(backend.summary)\n")
        return 0
    }
}
