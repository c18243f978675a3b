import AsyncPaging
import AsyncPagingUI

/// Draws the interactive screen as lines of toned text: a pure function of ``ScreenState``, so
/// what the person sees follows from the state alone.
///
/// ```
///  feed-demo · 30 posts                             api: 2 requests, 0 cancelled, 0 failed
///    1  #100  ada       Notes on cursor pagination (12 likes)
///    …
///  rows 1–20 of 30 · ↓ 10 more below
///  events: ✓ load-more done ← ✓ refresh done
///  ↑↓/jk/wheel scroll · k at top: pull to refresh · r refresh · m more · t retry · f fail · q quit
/// ```
struct ScreenRenderer {
    /// Rows that are not list rows: header, status line, event history, keys.
    static let chromeRows = 4
    /// The fewest digits a row number takes (padded with spaces on the left).
    static let minimumNumberWidth = 3
    static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    static let keyLine = " ↑↓/jk/wheel scroll · k at top: pull to refresh · r refresh · m more · t retry · f fail · q quit"
    /// The key line of a feed opened in the middle (`--open-at`): `p` loads the page above.
    static let twoEndedKeyLine = " ↑↓/jk/wheel scroll · k at top: pull · r refresh · p newer · m more · t retry · f fail · q quit"

    var width: Int
    var height: Int

    /// A run of text in one tone.
    struct Segment: Equatable {
        var text: String
        var tone: Tone = .plain
    }

    /// One rendered row: its segments, and whether it is a bar (inverse video, full width).
    struct Row: Equatable {
        var segments: [Segment]
        var isBar = false

        init(_ text: String, tone: Tone = .plain, isBar: Bool = false) {
            segments = [Segment(text: text, tone: tone)]
            self.isBar = isBar
        }

        init(segments: [Segment], isBar: Bool = false) {
            self.segments = segments
            self.isBar = isBar
        }

        /// The row without tones, as a terminal without colours shows it.
        var text: String { segments.map(\.text).joined() }
    }

    func render<Item: ListRow & Sendable>(_ state: ScreenState<Item>, spinnerTick: Int) -> [Row] {
        guard height >= ScreenRenderer.chromeRows + 2, width >= 20 else {
            return [Row(fit("feed-demo: the terminal is too small; q quits"))]
                + Array(repeating: Row(""), count: max(height - 1, 0))
        }
        let spinner = ScreenRenderer.spinnerFrames[spinnerTick % ScreenRenderer.spinnerFrames.count]
        let items = state.items
        var rows: [Row] = []

        rows.append(header(state, spinner: spinner))

        // The list. Row numbers take at least three digits, so that the columns do not move when
        // the list passes 99 rows; beyond 999 they take as many as the last row's number.
        let listRows = height - ScreenRenderer.chromeRows
        let numberWidth = max(ScreenRenderer.minimumNumberWidth, String(items.isEmpty ? 1 : Self.rowNumber(items, items.count - 1)).count)
        let idWidth = max(items.first?.idLabel.count ?? 0, items.last?.idLabel.count ?? 0)
        for index in state.viewport.top..<(state.viewport.top + listRows) {
            if index < items.count {
                let number = String(Self.rowNumber(items, index))
                let padding = String(repeating: " ", count: max(numberWidth - number.count, 0))
                rows.append(Row(fit(" \(padding)\(number)  \(items[index].line(idWidth: idWidth))")))
            } else if index == 0 {
                let (text, tone) = emptyListText(state.status, noun: state.noun)
                rows.append(Row(fit("   " + text), tone: tone))
            } else {
                rows.append(Row(""))
            }
        }

        rows.append(Row(segments: fit(statusLine(state, spinner: spinner))))
        var history = [Segment(text: " events: ")]
        if state.history.isEmpty { history.append(Segment(text: "none yet", tone: .quiet)) }
        for (index, entry) in state.history.enumerated() {
            if index > 0 { history.append(Segment(text: " ← ")) }
            history.append(Segment(text: entry.text, tone: entry.tone))
        }
        rows.append(Row(segments: fit(history)))
        rows.append(Row(fit(state.top == nil ? ScreenRenderer.keyLine : ScreenRenderer.twoEndedKeyLine), isBar: true))
        return rows
    }

    // MARK: Parts

    /// The title bar: the feed, or the header gesture while it is pulled or loading.
    private func header<Item: Sendable>(_ state: ScreenState<Item>, spinner: Character) -> Row {
        let count = "\(state.items.count) \(state.noun)"
        var title: [Segment]
        let gesture = state.header
        if state.status == .refreshing || gesture?.state == .loading {
            title = [Segment(text: " \(spinner) refreshing… · \(count)")]
        } else if let gesture, gesture.state == .triggered {
            title = [Segment(text: " ↑ release to refresh", tone: .emphasis), Segment(text: " · \(count)")]
        } else if let gesture, gesture.progress > 0 {
            let filled = Int((gesture.progress * 6).rounded(.down))
            let bar = String(repeating: "■", count: filled) + String(repeating: "□", count: 6 - filled)
            title = [Segment(text: " ↓ pull to refresh \(bar) \(Int(gesture.progress * 100))% · \(count)")]
        } else if gesture?.state == .invalid {
            title = [Segment(text: " feed-demo · \(count) · refresh unavailable", tone: .quiet)]
        } else {
            title = [Segment(text: " feed-demo · \(count)")]
        }
        if let top = state.top, !state.items.isEmpty { title.append(topSegment(top, spinner: spinner)) }
        let right = "api: \(state.apiSummary) "
        let used = title.reduce(0) { $0 + $1.text.count }
        if used + right.count + 1 <= width {
            title.append(Segment(text: String(repeating: " ", count: width - used - right.count) + right))
        }
        return Row(segments: fit(title), isBar: true)
    }

    /// What the top of a feed opened in the middle is doing, from the load-previous side's
    /// state: the posts above are newer ones (the feed is newest first).
    private func topSegment(_ top: FeedLoadState, spinner: Character) -> Segment {
        switch top {
        case .loading: Segment(text: " · ↑ \(spinner) loading newer…")
        case .reachedEnd: Segment(text: " · ↑ start of the data", tone: .quiet)
        case .failed: Segment(text: " · ↑ newer failed · t retries", tone: .failure)
        case .idle: Segment(text: " · ↑ newer above: scroll up")
        }
    }

    /// What the list shows before it has a row: a failed first page says so in red, with the
    /// error and the key that retries it.
    private func emptyListText(_ status: FeedStatus, noun: String) -> (String, Tone) {
        switch status {
        case .refreshing: ("loading the first page…", .plain)
        case .endOfData: ("(the feed is empty)", .plain)
        case .failed(let failure):
            ("✗ the first page failed: \(EventText.error(failure.error)) · t retries", .failure)
        default: ("(no \(noun))", .plain)
        }
    }

    /// The number row `index` of `items` shows: the item's row in the data when it knows it
    /// (a feed opened in the middle starts below 1), else its place in the list.
    static func rowNumber<Item: ListRow>(_ items: FeedSnapshot<Item>, _ index: Int) -> Int {
        items[index].rowNumber ?? index + 1
    }

    /// Where the list is, then what the feed is doing. The position always shows, so that a
    /// state (the end of the data, a failure) never hides that rows remain below.
    ///
    /// The rows are numbered as the data numbers them: a feed opened in the middle shows which
    /// of its rows are loaded, "rows 41–60 (41–85 loaded)"; one loaded from its first row,
    /// "rows 1–20 of 30".
    private func statusLine<Item: ListRow & Sendable>(_ state: ScreenState<Item>, spinner: Character) -> [Segment] {
        let items = state.items
        let count = items.count
        var segments: [Segment] = []
        var below = 0
        if count > 0 {
            let last = min(state.viewport.lastVisibleIndex + 1, count)
            below = count - last
            let shown = "\(Self.rowNumber(items, state.viewport.top))–\(Self.rowNumber(items, last - 1))"
            let (firstLoaded, lastLoaded) = (Self.rowNumber(items, 0), Self.rowNumber(items, count - 1))
            if firstLoaded == 1 {
                segments.append(Segment(text: " rows \(shown) of \(count)"))
            } else {
                segments.append(Segment(text: " rows \(shown) (\(firstLoaded)–\(lastLoaded) loaded)"))
            }
            if below > 0 { segments.append(Segment(text: " · ↓ \(below) more below")) }
        }
        let separator = segments.isEmpty ? " " : " · "
        switch state.status {
        case .loadingMore:
            segments.append(Segment(text: "\(separator)\(spinner) loading more…"))
        case .failed(let failure):
            segments.append(Segment(
                text: "\(separator)✗ \(EventText.name(of: failure.side)) failed: \(EventText.error(failure.error)) · t retries",
                tone: .failure))
        case .endOfData:
            let text = below > 0 ? "no more data after them" : "── no more data · all \(count) \(state.noun) loaded ──"
            segments.append(Segment(text: "\(separator)\(text)", tone: .quiet))
        case .closed:
            segments.append(Segment(text: "\(separator)closed", tone: .quiet))
        case .idle, .refreshing, .loadingPrevious:
            if count > 0, below == 0 { segments.append(Segment(text: " · ↓ scroll down to load more")) }
        }
        return segments
    }

    // MARK: Fitting

    /// `text` cut to the width, with an ellipsis.
    private func fit(_ text: String) -> String {
        text.count <= width ? text : String(text.prefix(width - 1)) + "…"
    }

    /// The segments cut to the width, with an ellipsis in the tone of the segment it ends.
    private func fit(_ segments: [Segment]) -> [Segment] {
        var room = width
        var fitted: [Segment] = []
        for segment in segments {
            if segment.text.count <= room {
                fitted.append(segment)
                room -= segment.text.count
            } else if room > 0 {
                fitted.append(Segment(text: String(segment.text.prefix(room - 1)) + "…", tone: segment.tone))
                break
            } else if var last = fitted.popLast() {
                last.text = String(last.text.dropLast()) + "…"
                fitted.append(last)
                break
            }
        }
        return fitted
    }
}

/// What the interactive screen shows.
struct ScreenState<Item: Sendable> {
    var items: FeedSnapshot<Item>
    var status: FeedStatus
    var header: PullGesture?
    var viewport: Viewport
    /// The latest load ends and notices, newest first.
    var history: [HistoryEntry]
    var apiSummary: String
    /// What the items are called: "posts" (the simulated API), "items" (`--url`).
    var noun = "posts"
    /// The top's state when the feed opened in the middle (`--open-at`), else nil.
    var top: FeedLoadState?
}

/// One entry of the event line.
struct HistoryEntry: Equatable {
    var text: String
    var tone: Tone
}
