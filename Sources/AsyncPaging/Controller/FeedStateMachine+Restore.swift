// Restoring a saved list (``FeedState``) into a new machine: the state a machine would be in
// after loading those pages and nothing else.
extension FeedStateMachine {
    /// Takes `records` (first to last, at least one) as the list's applied pages: records
    /// them, puts their fetched cursors in the repeated-cursor guard, and sets both ends from
    /// the edge pages' cursors (an end whose cursor is `nil` has reached the end of the data).
    ///
    /// An end whose cursor onward is one of the pages' fetched cursors is restored as the live
    /// machine left it when that page landed: halted with a ``FeedError/repeatedCursor(_:)``
    /// failure, until `retry()` (which rechecks the edge page) or a refresh.
    ///
    /// Called on a new machine only, before any request.
    @inlinable mutating func restore(pages records: [_PageRecord<Cursor>]) {
        guard let first = records.first, let last = records.last else { return }
        if !configuration.allowsCursorReuse { followedCursors.reserveCapacity(records.count) }
        for record in records {
            if keepsPages { pages.append(record) }
            if let cursor = record.fetchedWith, !configuration.allowsCursorReuse { followedCursors.insert(cursor) }
        }
        hasLoadedFirstPage = true
        refreshOrigin = first.fetchedWith
        start = Edge()
        start.cursor = first.previous
        start.reachedEnd = first.previous == nil
        start.edgePageCursor = first.fetchedWith
        end = Edge()
        end.cursor = last.next
        end.reachedEnd = last.next == nil
        end.edgePageCursor = last.fetchedWith
        for side in [FeedSide.loadPrevious, .loadMore] {
            guard let cursor = self[edge: side].cursor, followedCursors.contains(cursor) else { continue }
            self[edge: side].halt = .repeatedCursor
            failures.append(FeedFailure(error: FeedError.repeatedCursor("\(cursor)"), side: side, attempt: 1))
        }
    }

    /// The whole list as one page record, for a machine that keeps no records (no bound):
    /// the cursors of its two ends, `nil` before the first page.
    @inlinable func wholeListAsOnePage(itemCount: Int) -> [_PageRecord<Cursor>] {
        guard hasLoadedFirstPage else { return [] }
        return [_PageRecord(
            itemCount: itemCount, previous: start.reachedEnd ? nil : start.cursor, next: end.reachedEnd ? nil : end.cursor,
            fetchedWith: refreshOrigin)]
    }
}
