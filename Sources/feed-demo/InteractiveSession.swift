import AsyncPaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of one interactive run, owned by the main thread.
struct InteractiveSession {
    let feed: FeedController<FeedItem, FeedCursor>
    let api: SimulatedFeedAPI
    let model: FeedScreenModel
    let prefetchDistance: Int

    private var viewport = Viewport()
    private var decoder = KeyDecoder()
    private var drawn: [ScreenRenderer.Row] = []
    private var drawnSize = (rows: 0, columns: 0)
    private var generation: UInt64 = 0
    /// The list (generation, count) a load-more was last asked for, so that one list asks once.
    private var askedMoreFor: (generation: UInt64, count: Int)?
    private var quit = false
    private let started = ContinuousClock.now
    /// How long the loop waits for a key before it redraws: the spinner's frame time.
    private let frameMilliseconds: Int32 = 80

    init(feed: FeedController<FeedItem, FeedCursor>, api: SimulatedFeedAPI, model: FeedScreenModel, prefetchDistance: Int) {
        self.feed = feed
        self.api = api
        self.model = model
        self.prefetchDistance = prefetchDistance
    }

    mutating func loop() {
        while !quit {
            draw()
            for key in waitForKeys() {
                handle(key)
                if quit { return }
            }
        }
    }

    // MARK: Input

    /// The keys typed within one frame; none when the frame passed quietly.
    private mutating func waitForKeys() -> [Key] {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, frameMilliseconds)
        guard ready > 0 else { return decoder.flush() }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 { return [.endOfInput] }
        if count < 0 { return [] } // EINTR and the like: try again next frame
        return decoder.decode(buffer[..<count])
    }

    private mutating func handle(_ key: Key) {
        let state = model.current
        let count = state.snapshot.count
        switch key {
        case .down, .character("j"): scrolled(viewport.scroll(by: 1, count: count), state)
        case .up, .character("k"): viewport.scroll(by: -1, count: count)
        case .pageDown, .character(" "): scrolled(viewport.scroll(by: viewport.rows, count: count), state)
        case .pageUp, .character("b"): viewport.scroll(by: -viewport.rows, count: count)
        case .home, .character("g"): viewport.scrollToTop()
        case .end, .character("G"):
            viewport.scrollToBottom(count: count)
            scrolled(true, state)
        case .character("r"):
            feed.send(.refresh)
        case .character("m"):
            askedMoreFor = (state.snapshot.generation, count)
            feed.send(.loadMore)
        case .character("t"):
            if case .failed = state.status {
                feed.send(.retry)
            } else {
                model.note("• nothing to retry")
            }
        case .character("f"):
            api.inject(.fail)
            model.note("• the next request will fail")
        case .character("q"), .interrupt, .endOfInput:
            quit = true
        default:
            break
        }
    }

    /// After a scroll down: at the bottom (or within the prefetch distance), ask for more.
    /// Pressing down at the very bottom counts too, as a pull on the footer.
    private mutating func scrolled(_ moved: Bool, _ state: FeedScreenModel.State) {
        let wants = PrefetchCheck.wantsMore(
            lastVisibleIndex: viewport.lastVisibleIndex, itemCount: state.snapshot.count,
            distance: prefetchDistance, status: state.status, userScrolled: true)
        guard wants else { return }
        let list = (state.snapshot.generation, state.snapshot.count)
        if moved || askedMoreFor.map({ $0 != list }) ?? true || state.status == .refreshing {
            askedMoreFor = list
            feed.send(.loadMore)
        }
    }

    // MARK: Output

    private mutating func draw() {
        let size = Terminal.size() ?? (rows: 24, columns: 80)
        let state = model.current
        viewport.rows = max(size.rows - ScreenRenderer.chromeRows, 1)
        if state.snapshot.generation != generation {
            generation = state.snapshot.generation
            viewport.scrollToTop()
        }
        viewport.clamp(count: state.snapshot.count)
        prefetchIfScreenNotFull(state)

        let elapsed = ContinuousClock.now - started
        let tick = Int(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000) / Int(frameMilliseconds)
        let renderer = ScreenRenderer(width: size.columns, height: size.rows)
        let rows = renderer.render(state, viewport: viewport, spinnerTick: tick, apiSummary: apiSummary())

        var output = ""
        let resized = size != drawnSize
        if resized { output += "\u{1B}[2J" }
        for (index, row) in rows.enumerated() where resized || index >= drawn.count || drawn[index] != row {
            output += Terminal.line(row.text, atRow: index, inverse: row.inverse)
        }
        if !output.isEmpty { Terminal.output(output) }
        drawn = rows
        drawnSize = size
    }

    /// A list that does not reach the prefetch distance asks for more by itself, once per list.
    private mutating func prefetchIfScreenNotFull(_ state: FeedScreenModel.State) {
        let wants = PrefetchCheck.wantsMore(
            lastVisibleIndex: viewport.lastVisibleIndex, itemCount: state.snapshot.count,
            distance: prefetchDistance, status: state.status, userScrolled: false)
        let list = (state.snapshot.generation, state.snapshot.count)
        guard wants, askedMoreFor.map({ $0 != list }) ?? true else { return }
        askedMoreFor = list
        feed.send(.loadMore)
    }

    private func apiSummary() -> String {
        let stats = api.stats
        return "\(stats.requests) requests, \(stats.cancelled) cancelled, \(stats.failed) failed"
    }
}
