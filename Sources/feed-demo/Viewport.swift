/// Which rows of the list are on screen.
struct Viewport: Equatable {
    /// The index of the first visible item.
    private(set) var top = 0
    /// How many list rows fit on screen.
    var rows = 1

    /// The index of the last visible row (it may be past the end of a short list).
    var lastVisibleIndex: Int { top + rows - 1 }

    /// Scrolls by `delta` rows within a list of `count` items; `true` if it moved.
    @discardableResult
    mutating func scroll(by delta: Int, count: Int) -> Bool {
        let old = top
        top += delta
        clamp(count: count)
        return top != old
    }

    mutating func scrollToTop() {
        top = 0
    }

    mutating func scrollToBottom(count: Int) {
        top = count
        clamp(count: count)
    }

    /// Keeps the viewport inside a list of `count` items (it shows the last page at most).
    mutating func clamp(count: Int) {
        top = max(0, min(top, count - rows))
    }
}
