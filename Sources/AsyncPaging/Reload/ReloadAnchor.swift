/// The row on screen when the list reloads (an invalidation): what
/// ``ReloadPolicy/refreshCursor`` names a cursor for, as Paging 3's `getRefreshKey(state)` does.
public struct ReloadAnchor<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// The item of the first row on screen, as reported with
    /// ``FeedController/reportVisibleRows(_:prefetchDistance:)``.
    public var item: Item
    /// Its index in the current list.
    public var index: Int
    /// The cursor the page holding it was fetched with; `nil` for the first page of the data.
    /// A feed that keeps no page cursors (``FeedConfiguration/keepsPageCursors``) knows its list
    /// as one page: this is then the cursor of the list's first page.
    public var pageCursor: Cursor?
    /// The item's place in that page, from 0.
    public var indexInPage: Int

    /// Creates an anchor.
    public init(item: Item, index: Int, pageCursor: Cursor?, indexInPage: Int) {
        self.item = item
        self.index = index
        self.pageCursor = pageCursor
        self.indexInPage = indexInPage
    }
}
