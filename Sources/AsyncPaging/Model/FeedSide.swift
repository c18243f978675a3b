/// The three ways a feed loads: a refresh (the header), a load at the end of the list (the
/// footer) and a load before the start of the list.
public enum FeedSide: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The header: a refresh that fetches the first page (or the page at a cursor) and replaces
    /// the list.
    case refresh
    /// The end of the list: a load-more that fetches the page after the last page and appends it.
    case loadMore
    /// The start of the list: fetches the page before the first page and prepends it; for
    /// lists that open in the middle of their data (a chat opened at a message).
    case loadPrevious

    /// The case name: `refresh`, `loadMore` or `loadPrevious`.
    public var description: String { rawValue }
}
