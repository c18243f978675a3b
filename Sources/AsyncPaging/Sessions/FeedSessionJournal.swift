/// What changed in a controller's list since a ``FeedSessionRegistry`` last saved it: the page
/// records to write to its ``FeedSessionStore``, or a mark that the whole list must be written
/// (a refresh, an edit, a merge at the head).
///
/// It lives in the controller and is read and written only on the controller's actor (in the
/// turn that changes the list, and in ``FeedController/_takeSessionRecords(wholeList:)``), so
/// it needs no lock. `onChange` tells the registry that something is waiting to be saved, once
/// per batch.
///
/// Its methods are not inlinable on purpose: the controller's inlined code only tests the
/// optional reference, so a controller without a journal never touches (or instantiates the
/// metadata of) the record types — which cost 12 allocations on the first edit when inlined.
@usableFromInline final class _FeedSessionJournal<Item: Sendable, Cursor: Hashable & Sendable> {
    var records: [FeedSessionRecord<Item, Cursor>] = []
    var needsWholeList = false
    var notified = false
    let onChange: @Sendable () -> Void

    @usableFromInline init(onChange: @escaping @Sendable () -> Void) {
        self.onChange = onChange
    }

    /// Records a page applied at `side`; `kept` are its items as put in the list.
    @usableFromInline func recordPage(_ page: Page<Item, Cursor>, kept: [Item], at side: FeedSide) {
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
    @usableFromInline func recordDrop(pages: Int, items: Int, atStart: Bool) {
        if !needsWholeList { records.append(.dropped(pageCount: pages, itemCount: items, from: atStart ? .start : .end)) }
        notify()
    }

    /// Records a change that only the whole list describes.
    @usableFromInline func recordWholeList() {
        needsWholeList = true
        records.removeAll()
        notify()
    }

    func notify() {
        guard !notified else { return }
        notified = true
        onChange()
    }

    /// Takes what was recorded; the next change notifies again.
    func take() -> (records: [FeedSessionRecord<Item, Cursor>], wholeList: Bool) {
        defer {
            records = []
            needsWholeList = false
            notified = false
        }
        return (records, needsWholeList)
    }
}
