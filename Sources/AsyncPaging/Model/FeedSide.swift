/// The two ends of a feed that can load: the header (refresh) and the footer (load more).
public enum FeedSide: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The header: a refresh that fetches the first page and replaces the list.
    case refresh
    /// The footer: a load-more that fetches the next page and appends it.
    case loadMore

    /// The case name: `refresh` or `loadMore`.
    public var description: String { rawValue }
}
