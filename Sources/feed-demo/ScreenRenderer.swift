import AsyncPaging

/// Draws the interactive screen as plain lines: a pure function of the model, so what the
/// person sees follows from the state alone.
///
/// ```
///  feed-demo · 30 posts                        api: 3 requests: 3 ok, 0 failed, 0 cancelled
///    1  #100  ada       Notes on cursor pagination (12 likes)
///    …
///  ⠹ loading more…
///  events: ✓ load-more done ← ✓ refresh done
///  ↑↓/jk scroll · PgUp/PgDn page · r refresh · m more · t retry · f fail next · q quit
/// ```
struct ScreenRenderer {
    /// Rows that are not list rows: header, footer, event history, keys.
    static let chromeRows = 4
    static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    var width: Int
    var height: Int

    /// One rendered row and whether it is drawn in inverse video.
    struct Row: Equatable {
        var text: String
        var inverse = false
    }

    func render(_ state: FeedScreenModel.State, viewport: Viewport, spinnerTick: Int, apiSummary: String) -> [Row] {
        guard height >= ScreenRenderer.chromeRows + 2, width >= 20 else {
            return [Row(text: fit("feed-demo: the terminal is too small; q quits"))]
                + Array(repeating: Row(text: ""), count: max(height - 1, 0))
        }
        let spinner = ScreenRenderer.spinnerFrames[spinnerTick % ScreenRenderer.spinnerFrames.count]
        let snapshot = state.snapshot
        var rows: [Row] = []

        // Header.
        let title = state.status == .refreshing
            ? " \(spinner) refreshing… · \(snapshot.count) posts"
            : " feed-demo · \(snapshot.count) posts"
        rows.append(Row(text: fit(title, right: "api: \(apiSummary) "), inverse: true))

        // The list.
        let listRows = height - ScreenRenderer.chromeRows
        let numberWidth = String(max(snapshot.count, 1)).count
        let idWidth = String(max(snapshot.first?.id ?? 0, snapshot.last?.id ?? 0)).count
        for index in viewport.top..<(viewport.top + listRows) {
            if index < snapshot.count {
                let number = String(index + 1)
                let padding = String(repeating: " ", count: max(numberWidth - number.count, 0))
                rows.append(Row(text: fit(" \(padding)\(number)  \(snapshot[index].line(idWidth: idWidth))")))
            } else if index == 0 {
                rows.append(Row(text: fit("   " + emptyListText(state.status))))
            } else {
                rows.append(Row(text: ""))
            }
        }

        // Footer, history, keys.
        rows.append(Row(text: fit(footer(state, viewport: viewport, spinner: spinner))))
        let history = state.history.isEmpty ? "none yet" : state.history.joined(separator: " ← ")
        rows.append(Row(text: fit(" events: \(history)")))
        rows.append(Row(
            text: fit(" ↑↓/jk scroll · PgUp/PgDn page · r refresh · m more · t retry · f fail next · q quit"),
            inverse: true))
        return rows.map { row in
            guard row.inverse, row.text.count < width else { return row }
            return Row(text: row.text + String(repeating: " ", count: width - row.text.count), inverse: true)
        }
    }

    private func emptyListText(_ status: FeedStatus) -> String {
        switch status {
        case .refreshing: "loading the first page…"
        case .endOfData: "(the feed is empty)"
        case .failed: "(nothing loaded yet)"
        default: "(no posts)"
        }
    }

    private func footer(_ state: FeedScreenModel.State, viewport: Viewport, spinner: Character) -> String {
        let count = state.snapshot.count
        switch state.status {
        case .loadingMore:
            return " \(spinner) loading more…"
        case .failed(let failure):
            let side = failure.side == .refresh ? "refresh" : "load-more"
            return " ✗ \(side) failed: \(failure.error) · press t to retry"
        case .endOfData:
            return " ── no more data · all \(count) posts loaded ──"
        case .closed:
            return " closed"
        case .idle, .refreshing:
            guard count > 0 else { return "" }
            let last = min(viewport.lastVisibleIndex + 1, count)
            let more = last < count ? " · ↓ \(count - last) more below" : " · ↓ scroll down to load more"
            return " rows \(viewport.top + 1)–\(last) of \(count)\(more)"
        }
    }

    /// `text` cut to the width (with an ellipsis), with `right` aligned to the right edge
    /// when there is room for it.
    private func fit(_ text: String, right: String = "") -> String {
        if !right.isEmpty, text.count + right.count + 1 <= width {
            return text + String(repeating: " ", count: width - text.count - right.count) + right
        }
        if text.count <= width { return text }
        return String(text.prefix(width - 1)) + "…"
    }
}
