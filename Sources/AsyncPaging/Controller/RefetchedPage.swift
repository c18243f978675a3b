/// A page a refetch (``RefreshMode/refetchLoaded``) fetched, with the cursor it was fetched
/// with, until the whole refetch has come and replaces the list.
@usableFromInline struct _RefetchedPage<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    @usableFromInline let fetchedWith: Cursor?
    @usableFromInline let page: Page<Item, Cursor>

    @inlinable init(fetchedWith: Cursor?, page: Page<Item, Cursor>) {
        self.fetchedWith = fetchedWith
        self.page = page
    }
}
