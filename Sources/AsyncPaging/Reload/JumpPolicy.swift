/// When a feed jumps: the UI reports rows on screen farther than ``threshold`` rows past the
/// loaded pages (a scroll bar dragged far, a "jump to" control), and the source can name the
/// cursor of the page there, so the feed refreshes at the target instead of loading every page
/// between (Paging 3's `jumpThreshold` and `jumpingSupported`).
///
/// ```swift
/// // Cursors are offsets of pages of 20: the page holding row `row` of the data.
/// let jumps = JumpPolicy<Int>(threshold: 100) { target in
///     let position = (target.firstPageCursor ?? 0) + target.row
///     return position < 0 ? nil : position / 20 * 20
/// }
/// ```
public struct JumpPolicy<Cursor: Hashable & Sendable>: Sendable {
    /// How many rows past the list's first or last row the first row on screen must be for a
    /// jump; a negative value counts as 0.
    public var threshold: Int
    /// The cursor of the page that holds the target; `nil`: the source cannot name one, and the
    /// feed does not jump.
    public var cursor: @Sendable (JumpTarget<Cursor>) -> Cursor?

    /// Creates a policy that jumps past `threshold` rows to the page `cursor` names.
    public init(threshold: Int, cursor: @escaping @Sendable (JumpTarget<Cursor>) -> Cursor?) {
        self.threshold = Swift.max(threshold, 0)
        self.cursor = cursor
    }
}
