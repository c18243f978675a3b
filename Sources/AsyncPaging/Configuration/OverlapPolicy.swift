/// What `loadMore()` does while a refresh is in flight.
public enum LoadMoreDuringRefreshPolicy: Sendable, Hashable {
    /// The refresh is cancelled (its data is never applied, it ends as cancelled) and the
    /// load-more runs from the current list's cursor. This is the seeds' "improved" view model.
    case cancelRefresh
    /// The refresh wins; the load-more is ignored. This is what Android Paging 3 does.
    case ignoreLoadMore
}

/// What `refresh()` does while another refresh is in flight.
public enum RefreshDuringRefreshPolicy: Sendable, Hashable {
    /// The newer refresh wins: the older one is cancelled and its caller is told it was
    /// superseded; the header stays refreshing, with no end event in between.
    case restart
    /// The newer call joins the refresh in flight and gets its outcome.
    case join
}

/// What `loadMore()` does while another load-more is in flight, and `loadPrevious()` while
/// another load-previous is: the rule for repeated requests at one end.
public enum LoadMoreDuringLoadMorePolicy: Sendable, Hashable {
    /// The newer call joins the load in flight and gets its outcome: a user bouncing at the
    /// bottom fetches once (the seeds' `flatMapFirst`).
    case join
    /// The load in flight is cancelled and a new one starts from the same cursor; the footer
    /// stays loading, with no end event in between.
    case restart
}

/// What happens to items whose id is already in the list.
public enum DuplicatePolicy: Sendable, Hashable {
    /// Items whose id is already in the list (or earlier in the same page) are dropped and
    /// counted in ``LoadSummary/droppedDuplicates``. The first occurrence stays where it is.
    case drop
    /// Every item is kept, duplicates included, and none is counted.
    case keep
}

/// What `loadPrevious()` does while a refresh is in flight.
public enum LoadPreviousDuringRefreshPolicy: Sendable, Hashable {
    /// The refresh is cancelled (its data is never applied) and the load-previous runs from the
    /// current list's first cursor: the same rule as ``LoadMoreDuringRefreshPolicy/cancelRefresh``.
    case cancelRefresh
    /// The refresh wins; the load-previous is ignored (``IgnoreReason/refreshInFlight``).
    case ignoreLoadPrevious
}

/// What a load at one end of the list does to a load in flight at the other end.
public enum BothEndsPolicy: Sendable, Hashable {
    /// Both run at once, each on its own: a chat can load older and newer messages together.
    /// Their pages land in whichever order they arrive, each at its own end.
    case runBoth
    /// The newer load cancels the one at the other end (its data is never applied); it ends as
    /// cancelled by ``CancellationReason/preemptedByLoadMore`` or
    /// ``CancellationReason/preemptedByLoadPrevious``.
    case cancelOther
}
