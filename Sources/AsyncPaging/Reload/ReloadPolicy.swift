/// How a ``FeedController`` reloads where the user is: the cursor an invalidation reloads from,
/// and jumps. Set it with ``FeedController/setReloadPolicy(_:)``.
///
/// ```swift
/// await feed.setReloadPolicy(ReloadPolicy(
///     refreshCursor: { anchor in anchor.pageCursor },   // the default
///     jumps: JumpPolicy(threshold: 100) { target in (target.firstPageCursor ?? 0) + target.row }))
/// ```
///
/// A struct of optional parts, each `nil` by default: later versions add parts without
/// breaking a policy that names the ones it sets.
public struct ReloadPolicy<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// The cursor an invalidation reloads from, given the row on screen (Paging 3's
    /// `getRefreshKey(state)`); returning `nil` reloads from the first page of the data. When
    /// `nil` (the default), the cursor of the page that holds the anchor
    /// (``ReloadAnchor/pageCursor``). Not called when no row on screen was reported: the list's
    /// first page is reloaded then.
    public var refreshCursor: (@Sendable (ReloadAnchor<Item, Cursor>) -> Cursor?)?
    /// When the feed jumps; `nil` (the default): never, every page between is loaded.
    public var jumps: JumpPolicy<Cursor>?

    /// Creates a policy; every part defaults to the controller's behaviour without one.
    public init(
        refreshCursor: (@Sendable (ReloadAnchor<Item, Cursor>) -> Cursor?)? = nil, jumps: JumpPolicy<Cursor>? = nil
    ) {
        self.refreshCursor = refreshCursor
        self.jumps = jumps
    }
}
