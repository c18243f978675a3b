import AsyncPaging

/// When to ask for more: the simple prefetch rule of the demo.
///
/// More is wanted when the last visible row is within `distance` rows of the end of the list,
/// the list has a first page, and the feed is not already loading more, at its end, failed
/// (a failure waits for `t`, so a broken API is not hammered) or closed.
///
/// A refresh in flight stops only the automatic check (the screen is not full yet). When the
/// user scrolls to the bottom during a refresh, that is a load-more, which cancels the
/// refresh, as in the seeds.
enum PrefetchCheck {
    static func wantsMore(
        lastVisibleIndex: Int, itemCount: Int, distance: Int, status: FeedStatus, userScrolled: Bool
    ) -> Bool {
        guard itemCount > 0, lastVisibleIndex >= itemCount - 1 - distance else { return false }
        switch status {
        case .idle: return true
        case .refreshing: return userScrolled
        case .loadingMore, .endOfData, .failed, .closed: return false
        }
    }
}
