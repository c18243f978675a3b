/// What changed in a controller's list since a ``FeedSessionRegistry`` last saved it: the page
/// records to write to its ``FeedSessionStore``, or a mark that the whole list must be written
/// (a refresh, an edit, a merge at the head).
///
/// It lives in the controller and is read and written only on the controller's actor (in the
/// turn that changes the list, and in ``FeedController/_takeSessionRecords(wholeList:)``), so
/// it needs no lock. `onChange` tells the registry that something is waiting to be saved, once
/// per batch.
@usableFromInline final class _FeedSessionJournal<Item: Sendable, Cursor: Hashable & Sendable> {
    @usableFromInline var records: [FeedSessionRecord<Item, Cursor>] = []
    @usableFromInline var needsWholeList = false
    @usableFromInline var notified = false
    @usableFromInline let onChange: @Sendable () -> Void

    @usableFromInline init(onChange: @escaping @Sendable () -> Void) {
        self.onChange = onChange
    }

    /// Records a page applied at `side`; `kept` are its items as put in the list.
    @inlinable func recordPage(_ page: Page<Item, Cursor>, kept: [Item], at side: FeedSide) {
        switch side {
        case .refresh:
            recordWholeList()
            return
        case .loadMore:
            if !needsWholeList { records.append(.appended(Page(items: kept, previous: page.previous, next: page.next))) }
        case .loadPrevious:
            if !needsWholeList { records.append(.prepended(Page(items: kept, previous: page.previous, next: page.next))) }
        }
        notify()
    }

    /// Records whole pages dropped by the bound.
    @inlinable func recordDrop(pages: Int, items: Int, atStart: Bool) {
        if !needsWholeList { records.append(.dropped(pageCount: pages, itemCount: items, from: atStart ? .start : .end)) }
        notify()
    }

    /// Records a change that only the whole list describes.
    @inlinable func recordWholeList() {
        needsWholeList = true
        records.removeAll()
        notify()
    }

    @inlinable func notify() {
        guard !notified else { return }
        notified = true
        onChange()
    }

    /// Takes what was recorded; the next change notifies again.
    @inlinable func take() -> (records: [FeedSessionRecord<Item, Cursor>], wholeList: Bool) {
        defer {
            records = []
            needsWholeList = false
            notified = false
        }
        return (records, needsWholeList)
    }
}
