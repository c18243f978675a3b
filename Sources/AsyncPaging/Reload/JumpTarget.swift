/// A row far past the loaded pages that the UI reported on screen: what
/// ``JumpPolicy/cursor`` names a cursor for.
///
/// Rows are counted in the current list: `row` is `itemCount + 500` for the 501st item after
/// the last loaded one, and negative before the first. A source whose cursors are positions
/// finds the target's position from the first loaded page's cursor.
public struct JumpTarget<Cursor: Hashable & Sendable>: Sendable, Hashable {
    /// The first row reported on screen, in the current list's indices (beyond it).
    public var row: Int
    /// The current list's count.
    public var itemCount: Int
    /// The cursor the list's first page was fetched with; `nil` for the first page of the data.
    public var firstPageCursor: Cursor?
    /// The cursor the list's last page was fetched with; `nil` for the first page of the data.
    public var lastPageCursor: Cursor?

    /// Creates a target.
    public init(row: Int, itemCount: Int, firstPageCursor: Cursor?, lastPageCursor: Cursor?) {
        self.row = row
        self.itemCount = itemCount
        self.firstPageCursor = firstPageCursor
        self.lastPageCursor = lastPageCursor
    }
}
