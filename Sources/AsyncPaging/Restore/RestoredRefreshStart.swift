/// Where a controller created from a saved ``FeedState`` refreshes from: the refresh its
/// ``RestorePolicy`` starts, and every later ``FeedController/refresh()``.
///
/// ```swift
/// // Saved while pages 7...9 were on screen: the refresh fetches page 7 again, not page 0.
/// let feed = FeedController(source: source, restoring: saved)
/// ```
public enum RestoredRefreshStart: Sendable, Hashable {
    /// The restored list's own first page, from the cursor it was fetched with
    /// (``FeedState/fetchedCursor(ofPageAt:)`` of page 0: the `previous` of the second page).
    /// A list saved in the middle of the data refreshes where it was. `nil` — the first page
    /// of the data, as the initial load fetched it — when the saved first page is the first of
    /// the data (its `previous` is `nil`; a head-merging refresh then merges there), or when the
    /// state does not know that cursor: it has a single page (what a feed without
    /// ``FeedConfiguration/maximumItems`` exports: its whole list as one page).
    case savedFirstPage
    /// The controller's `initialCursor:`, for the policy's refresh, and the first page of the
    /// data for a later ``FeedController/refresh()``, as for a controller that was not
    /// restored.
    case initialCursor
}
