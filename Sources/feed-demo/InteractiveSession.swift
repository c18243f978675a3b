import AsyncPaging
import AsyncPagingUI

/// One interactive run: reads the inputs, drives the ``FeedModel``, draws the screen.
///
/// Everything happens on the main actor, where the model lives: a key is handled, then the
/// screen is drawn from the model; the frame tick redraws the spinner and releases a pull
/// that has not been pulled further for ``pullReleaseDelay``.
@MainActor
final class InteractiveSession<Item: ListRow & Sendable, Cursor: Hashable & Sendable> {
    private let model: FeedModel<Item, Cursor>
    private let api: any DemoBackend
    private let colors: Bool
    /// What the items are called: "posts" or "items".
    private let noun: String
    /// Whether the feed opened in the middle (`--open-at`): the header shows the top's state.
    private let twoEnded: Bool
    /// The list as last drawn: a prepend since then moves the viewport down by as many rows,
    /// so that the rows on screen stay where they are.
    private var drawnItems: FeedSnapshot<Item>?

    private var viewport = Viewport()
    /// Whether the person asked for the top (`g`, Home) and has not scrolled since: a page that
    /// lands above then shows at the top, instead of the rows on screen staying in place, so
    /// that `g` reaches the first row of the data.
    private var pinnedToTop = false
    private var decoder = KeyDecoder()
    private var drawn: [ScreenRenderer.Row] = []
    private var drawnSize = (rows: 0, columns: 0)
    private var generation: UInt64 = 0
    private var history: [HistoryEntry] = []
    private var tick = 0
    private var bytesSinceTick = false
    private var quit = false
    /// How far the header is pulled, and when it was last pulled further.
    private var pullDistance = 0.0
    private var lastPull = ContinuousClock.now
    private var eventsTask: Task<Void, Never>?

    /// - Parameter announcement: A note the first screen shows, such as the simulated failure
    ///   rate when it is not zero.
    init(
        model: FeedModel<Item, Cursor>, api: any DemoBackend, colors: Bool, noun: String = "posts", twoEnded: Bool = false,
        announcement: HistoryEntry? = nil
    ) {
        self.noun = noun
        self.twoEnded = twoEnded
        self.model = model
        self.api = api
        self.colors = colors
        if let announcement { history = [announcement] }
        let events = model.controller.events
        eventsTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                if let (text, tone) = EventText.describe(event) { self.record(HistoryEntry(text: text, tone: tone)) }
            }
        }
    }

    isolated deinit {
        eventsTask?.cancel()
    }

    /// Runs until the person quits or the input ends.
    func run(_ inputs: AsyncStream<Input>) async {
        draw()
        for await input in inputs {
            switch input {
            case .bytes(let bytes):
                bytesSinceTick = true
                for key in decoder.decode(bytes) {
                    handle(key)
                    if quit { return }
                }
            case .endOfInput:
                return
            case .tick:
                tick += 1
                // An escape sequence still incomplete after a quiet frame was a lone Escape.
                if !bytesSinceTick { decoder.flush().forEach(handle) }
                bytesSinceTick = false
                releasePullIfIdle()
            }
            if quit { return }
            draw()
        }
    }

    // MARK: Keys

    private func handle(_ key: Key) {
        if pullDistance > 0, key != .up, key != .character("k"), key != .wheelUp { releasePull() }
        let count = model.items.count
        switch key {
        case .down, .character("j"): scroll(by: 1)
        case .wheelDown: scroll(by: 3)
        case .up, .character("k"), .wheelUp:
            if viewport.top == 0 { pullHeader() } else { scroll(by: key == .wheelUp ? -3 : -1) }
        case .pageDown, .character(" "): scroll(by: viewport.rows)
        case .pageUp, .character("b"): scroll(by: -viewport.rows)
        case .home, .character("g"):
            if viewport.top == 0 { note("• already at the top") }
            viewport.scrollToTop()
            pinnedToTop = true
        case .end, .character("G"):
            pinnedToTop = false
            viewport.scrollToBottom(count: count)
            noteIfAtTheEnd()
        case .character("r"):
            Task { await model.refresh() } // the header shows it
        case .character("m"):
            Task {
                let result = await model.loadMore()
                answered("m", result)
            }
        case .character("p"):
            Task {
                let result = await model.loadPrevious()
                answered("p", result)
            }
        case .character("t"):
            if model.failure != nil {
                Task { await model.retry() }
            } else {
                note("• t: nothing to retry")
            }
        case .character("f"):
            note(api.injectFailure())
        case .character("q"), .interrupt, .endOfInput:
            quit = true
        case .mouse:
            break // clicks and drags: the wheel is the mouse's only use
        case .character(let character):
            note("• \(character): not a key of the demo (the last line lists them)")
        case .other:
            note("• that key does nothing here (the last line lists the keys)")
        }
    }

    private func scroll(by delta: Int) {
        pinnedToTop = false
        let moved = viewport.scroll(by: delta, count: model.items.count)
        guard !moved else { return }
        if delta > 0 { noteIfAtTheEnd() } else { note("• already at the top") }
    }

    /// At the bottom of a feed with no more data, says so; a feed with more loads by itself.
    private func noteIfAtTheEnd() {
        guard model.isEndOfData, viewport.lastVisibleIndex + 1 >= model.items.count else { return }
        note("• that is the last \(noun.dropLast()): no more data", tone: .quiet)
    }

    /// What a call answered that no event shows.
    private func answered(_ key: String, _ result: LoadResult) {
        switch result.outcome {
        case .endOfData where result.side == .loadPrevious:
            note("• \(key): start of the data · nothing newer above", tone: .quiet)
        case .endOfData:
            note("• \(key): no more data · all \(model.items.count) \(noun) are loaded", tone: .quiet)
        case .ignored(let reason):
            note("• \(key): nothing to do, \(EventText.ignored(reason))")
        case .completed, .cancelled, .failed:
            if result.joinedInFlightLoad {
                note("• \(key): joined the \(result.side == .loadPrevious ? "load-previous" : "load-more") in flight")
            }
        }
    }

    // MARK: Pull to refresh

    private func pullHeader() {
        guard let header = model.header else { return }
        if header.state == .loading {
            note("• already refreshing")
            return
        }
        pullDistance += SessionTuning.pullStep
        lastPull = .now
        model.pullHeader(by: pullDistance)
    }

    private func releasePullIfIdle() {
        guard pullDistance > 0, ContinuousClock.now - lastPull >= SessionTuning.pullReleaseDelay else { return }
        releasePull()
    }

    /// Lets go of the header: a triggered header refreshes; a shorter pull springs back.
    private func releasePull() {
        let progress = model.header?.progress ?? 0
        let triggered = model.header?.state == .triggered
        pullDistance = 0
        model.releasePull()
        if !triggered, progress > 0 {
            note("• pulled \(Int(progress * 100))%: not far enough to refresh (press k three times)")
        }
    }

    // MARK: Output

    /// Says `text` on the event line. A note that is already there moves to the front instead
    /// of being added again: a key pressed again where nothing changes (`j` or `m` at the end
    /// of the data, `g` at the top) does not push the loads' events off the line.
    private func note(_ text: String, tone: Tone = .plain) {
        let entry = HistoryEntry(text: text, tone: tone)
        history.removeAll { $0 == entry }
        record(entry)
    }

    /// Adds an entry at the front of the event line, which keeps the newest four. Each load's
    /// end is an entry of its own, also when it reads like the one before.
    private func record(_ entry: HistoryEntry) {
        history.insert(entry, at: 0)
        if history.count > 4 { history.removeLast() }
    }

    private func draw() {
        let size = Terminal.size() ?? (rows: 24, columns: 80)
        let items = model.items
        viewport.rows = max(size.rows - ScreenRenderer.chromeRows, 1)
        if items.generation != generation {
            generation = items.generation
            viewport.scrollToTop()
        } else if let drawnItems, !pinnedToTop {
            // Rows prepended above keep the rows on screen in place: the viewport moves down by
            // as many rows (what a UITableView or a SwiftUI List does by its scroll position).
            // After `g` the top stays on screen instead: the new rows show.
            let prepended = items.change(since: drawnItems).prependedCount
            if prepended > 0 { viewport.scroll(by: prepended, count: items.count) }
        }
        drawnItems = items
        viewport.clamp(count: items.count)
        // The rows on screen go to the prefetch trigger, as a list view reports them; it
        // loads more near the end and ignores the report while a load is in flight, at the end
        // of the data and after a failure.
        model.visibleRowsChanged(viewport.top..<min(viewport.top + viewport.rows, items.count))

        let state = ScreenState(
            items: model.items, status: model.status, header: model.header, viewport: viewport,
            history: history, apiSummary: apiSummary(), noun: noun,
            top: twoEnded ? model.loadStates.loadPrevious : nil)
        let rows = ScreenRenderer(width: size.columns, height: size.rows).render(state, spinnerTick: tick)

        var output = ""
        let resized = size != drawnSize
        if resized { output += "\u{1B}[2J" }
        for (index, row) in rows.enumerated() where resized || index >= drawn.count || drawn[index] != row {
            output += Terminal.line(row, atRow: index, width: size.columns, colors: colors)
        }
        if !output.isEmpty { Terminal.output(output) }
        drawn = rows
        drawnSize = size
    }

    private func apiSummary() -> String { api.summary }
}

/// The interactive screen's timings and pull distances.
enum SessionTuning {
    /// How long the loop waits between frames: the spinner's frame time.
    static let frame = Duration.milliseconds(80)
    /// The header triggers when pulled this far; each Up (or wheel notch) at the top pulls
    /// ``pullStep``, so three presses trigger it.
    static let pullThreshold = 60.0
    static let pullStep = 25.0
    /// A pull with no Up for this long is released, like a finger lifting.
    static let pullReleaseDelay = Duration.milliseconds(500)
}
