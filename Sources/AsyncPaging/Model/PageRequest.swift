/// Everything a ``PageSource`` needs to fetch one page.
public struct PageRequest<Cursor: Hashable & Sendable>: Sendable {
    /// The cursor of the page to fetch; `nil` asks for the first page.
    public var cursor: Cursor?
    /// Why the page is asked for: a refresh (header), a load-more (the page after the last one,
    /// asked for by the last page's `next`) or a load-previous (the page before the first one,
    /// asked for by the first page's `previous`).
    public var side: FeedSide
    /// The number of items the feed asks for. A source may return fewer or more.
    public var pageSize: Int
    /// 1 for the first try of a load, 2 for its first retry, and so on.
    public var attempt: Int
    /// The clock the controller runs on. A source that simulates latency, delays or polls
    /// should sleep on this clock, so that tests with a test clock stay deterministic.
    public var clock: any Clock<Duration>

    /// Creates a request. The controller makes these; tests and custom sources may too.
    @inlinable public init(
        cursor: Cursor?,
        side: FeedSide,
        pageSize: Int,
        attempt: Int = 1,
        clock: any Clock<Duration>
    ) {
        self.cursor = cursor
        self.side = side
        self.pageSize = pageSize
        self.attempt = attempt
        self.clock = clock
    }
}

extension PageRequest: CustomStringConvertible {
    /// The side, cursor, page size and attempt, for logs.
    public var description: String {
        let cursorText = cursor.map { "\($0)" } ?? "nil"
        return "PageRequest(\(side), cursor: \(cursorText), pageSize: \(pageSize), attempt: \(attempt))"
    }
}
