/// What a refresh from the top does with the list it finds.
public enum RefreshMode: Sendable, Hashable {
    /// The refresh replaces the whole list with the first page (the classic pull to refresh).
    case replace
    /// New posts at the head without losing the rest: when the list starts at the start of the
    /// data and the first page shares an id with the list, only the page's items before the
    /// first known id are inserted at the top (``FeedChange/prepended(_:)``, same generation);
    /// every loaded page stays, and a load at the end runs on (a refresh in this mode neither
    /// cancels one nor is cancelled by one; a load at the start follows the refresh rules as in
    /// ``replace``). The rest of the page is taken as already listed and counted in
    /// ``LoadSummary/droppedDuplicates``; the outcome's ``LoadSummary/reachedEnd`` says whether
    /// the list's end is the end of the data, and the refresh's event is
    /// ``FeedEndReason/completed`` (the merged page's `next` is not followed).
    ///
    /// When the page shares no id with the list (more new items than a page, or a list that
    /// changed), the refresh replaces the list as ``replace`` does, and a load at the end still
    /// in flight is cancelled then (``CancellationReason/preemptedByRefresh``): its page belonged
    /// to the old list. A refresh from a cursor (``FeedController/refresh(from:)``), a list that
    /// does not start at the start of the data, and items without ids or with
    /// ``DuplicatePolicy/keep`` (no ids are kept to find the overlap) always replace.
    case mergeAtHead
    /// Every loaded page fetched again, in order (TanStack Query's `refetch` of an infinite
    /// query): ``FeedController/refresh()`` fetches the list's first page from the cursor it was
    /// fetched with, then each next page from the `next` of the page fetched before it, as many
    /// pages as the list holds, and replaces the list once, when the last page has come (one
    /// snapshot, ``FeedChange/replaced``). With pages 9, 10 and 11 loaded, a refresh fetches 9,
    /// 10 and 11.
    ///
    /// It fetches fewer pages when a page names no `next` (the data got shorter) or a `next`
    /// already fetched in this refetch. Until the last page has come the list stays as it was:
    /// a refetch that fails (after its automatic retries, which count for the whole refetch),
    /// is cancelled (by a load at an end, ``LoadMoreDuringRefreshPolicy``, or a newer refresh)
    /// or is superseded leaves it unchanged, and `retry()` runs the whole refetch again. Edits
    /// made meanwhile are replaced with the list, as by any refresh; with
    /// ``FeedConfiguration/maximumItems`` the refetched list is trimmed to the bound as a page
    /// that lands at the end would trim it. ``FeedController/refresh(from:)`` still replaces the
    /// list with one page, and a list not loaded yet loads its first page.
    ///
    /// The controller keeps the cursor of every loaded page in this mode (a few bytes an item).
    case refetchLoaded
}
