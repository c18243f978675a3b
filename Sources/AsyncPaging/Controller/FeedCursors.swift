/// The cursors at the two ends of a feed's current list, as ``FeedController/cursors`` reports
/// them: what a service hands its client so that the client can page on (or resume) later.
public struct FeedCursors<Cursor: Hashable & Sendable>: Sendable, Hashable {
    /// The cursor of the page before the list's first page; `nil` when the list starts at the
    /// beginning of the data (always `nil` for now: the list grows only at its end).
    public var previous: Cursor?
    /// The cursor of the page after the list's last page; `nil` before the first page and at
    /// the end of the data.
    public var next: Cursor?
    /// Whether the last page has been loaded.
    public var reachedEnd: Bool

    /// Creates a cursor pair.
    public init(previous: Cursor?, next: Cursor?, reachedEnd: Bool) {
        self.previous = previous
        self.next = next
        self.reachedEnd = reachedEnd
    }
}

extension FeedCursors: Codable where Cursor: Codable {}
