/// One change to a saved session, as a ``FeedSessionStore`` writes it: the whole list, or a
/// page added at an end, or pages dropped from an end.
///
/// Saving a load-more writes one ``appended(_:)`` record — the page's items and cursors, so
/// O(page), not O(list). A refresh, an edit, or the first save of a session writes the whole
/// list (``replaced(_:)``). A store keeps a base state and the page records written after it
/// (a page log) and may fold them into a new base at any time (compaction): what it answers is
/// always the base with the records applied in order (``applied(to:)``), so how it stores them
/// is its own choice.
public enum FeedSessionRecord<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// Which end of the list a ``dropped(pageCount:itemCount:from:)`` record drops from.
    public enum End: String, Sendable, Hashable, Codable, CaseIterable {
        /// The first pages.
        case start
        /// The last pages.
        case end
    }

    /// The whole list, replacing what was saved (a session's first save, a refresh, an edit).
    case replaced(FeedState<Item, Cursor>)
    /// A page added after the last one (a load-more): its kept items (duplicates already left
    /// out) and its cursors. It was fetched with the `next` of the last saved page.
    case appended(Page<Item, Cursor>)
    /// A page added before the first one (a load-previous): its kept items and its cursors.
    /// It was fetched with the `previous` of the first saved page, and its own `previous` is
    /// now the list's.
    case prepended(Page<Item, Cursor>)
    /// Whole pages dropped from one end by a bounded feed (``FeedConfiguration/maximumItems``):
    /// `pageCount` pages holding `itemCount` items.
    case dropped(pageCount: Int, itemCount: Int, from: End)

    /// Whether the record holds the whole list (a store may drop every record before it).
    public var replacesList: Bool {
        if case .replaced = self { return true }
        return false
    }

    /// The number of items the record carries (the whole list's for ``replaced(_:)``, zero for
    /// ``dropped(pageCount:itemCount:from:)``): what a save writes, in items.
    public var itemCount: Int {
        switch self {
        case .replaced(let state): state.itemCount
        case .appended(let page), .prepended(let page): page.items.count
        case .dropped: 0
        }
    }

    /// `state` with this record applied: every store folds records this way.
    ///
    /// ``replaced(_:)`` answers its state whatever `state` is; a page record needs a saved
    /// list. The generation and save time are kept; the scroll anchor moves with the items
    /// before it (a prepended page shifts it, dropped pages at the start shift it back) and is
    /// left out when its item was dropped. O(pages) for the pages' cursors, plus the copy of
    /// the page list (a store that keeps pages as rows need not call this on each write).
    /// - Throws: ``FeedSessionStoreError/invalidRecord(_:)`` when there is no saved list for a
    ///   page record, or the result is not a list that can be restored (a page after the end
    ///   of the data, a cursor fetching two pages, more pages dropped than saved).
    public func applied(to state: FeedState<Item, Cursor>?) throws(FeedSessionStoreError) -> FeedState<Item, Cursor> {
        if case .replaced(let whole) = self { return whole }
        guard let state else { throw .invalidRecord("a page record on a session with no saved list") }
        var pages = state.pages
        var anchor = state.anchorIndex
        switch self {
        case .replaced:
            return state // handled above
        case .appended(let page):
            pages.append(page)
        case .prepended(let page):
            pages.insert(page, at: 0)
            anchor = anchor.map { $0 + page.items.count }
        case .dropped(let pageCount, _, let end):
            guard pageCount >= 0, pageCount < pages.count else {
                throw .invalidRecord("\(pageCount) pages dropped from a list of \(pages.count)")
            }
            let removed: Int
            switch end {
            case .start:
                removed = pages[..<pageCount].reduce(0) { $0 + $1.items.count }
                pages.removeFirst(pageCount)
                anchor = anchor.flatMap { $0 >= removed ? $0 - removed : nil }
            case .end:
                pages.removeLast(pageCount)
                let kept = pages.reduce(0) { $0 + $1.items.count }
                anchor = anchor.flatMap { $0 < kept ? $0 : nil }
            }
        }
        do {
            return try FeedState(pages: pages, generation: state.generation, anchorIndex: anchor, savedAt: state.savedAt)
        } catch {
            throw .invalidRecord("\(error)")
        }
    }
}

extension FeedSessionRecord: Equatable where Item: Equatable {}
