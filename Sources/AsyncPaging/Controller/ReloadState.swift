/// What a controller keeps for reloads where the user is (FeedController+Reload.swift): the
/// policy set with ``FeedController/setReloadPolicy(_:)`` and the anchor of the invalidation in
/// flight. Made on first use, so a controller that never reloads keeps one `nil` reference.
@usableFromInline final class _ReloadState<Item: Sendable, Cursor: Hashable & Sendable> {
    /// The row on screen when an invalidation started load `loadID`: its item, its index then,
    /// and its place in its page.
    @usableFromInline struct PendingAnchor {
        @usableFromInline let loadID: UInt64
        @usableFromInline let item: Item
        @usableFromInline let index: Int
        @usableFromInline let indexInPage: Int

        @inlinable init(loadID: UInt64, item: Item, index: Int, indexInPage: Int) {
            self.loadID = loadID
            self.item = item
            self.index = index
            self.indexInPage = indexInPage
        }
    }

    @usableFromInline var policy = ReloadPolicy<Item, Cursor>()
    @usableFromInline var anchor: PendingAnchor?

    @inlinable init() {}
}
