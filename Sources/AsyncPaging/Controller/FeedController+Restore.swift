// Export and restore (issue 13): the applied list as a ``FeedState``, and the setup of a
// controller created from one (its designated initializer calls `_restore`).
extension FeedController {
    /// The list as it is now, as a value to save: every applied page with its items and
    /// cursors, the generation, the scroll anchor and the time on `clock`. O(items).
    ///
    /// Only applied pages are exported: a load in flight is not (its page has not landed), nor
    /// are the cursors of empty pages a load followed, nor failures or halted ends (a restored
    /// controller re-derives a halt from the cursors). Duplicates dropped on the way in are not
    /// in the list, so not in the state.
    /// - Parameters:
    ///   - anchorIndex: The index (in the current list, ``currentSnapshot``) of the item the
    ///     UI shows at the top; an index outside the list saves no anchor.
    ///   - clock: The clock that stamps ``FeedState/savedAt``: real time by default, the same
    ///     clock a restoring ``RestorePolicy/ifOlderThan(_:clock:)`` reads.
    /// - Returns: The state, or `nil` before the first page has been applied (nothing to
    ///   restore: create the controller without `restoring:`).
    public func exportState(anchorIndex: Int? = nil, savedBy clock: any EpochClock = WallClock()) -> FeedState<Item, Cursor>? {
        let records = machine.pages
        guard !records.isEmpty else { return nil }
        let contents = store.contents
        var pages: [Page<Item, Cursor>] = []
        pages.reserveCapacity(records.count)
        var offset = 0
        for record in records {
            // The records count the store's items exactly; `min` only keeps a bad count from
            // reading past the list.
            let count = Swift.max(0, Swift.min(record.itemCount, contents.count - offset))
            var items: [Item] = []
            items.reserveCapacity(count)
            for index in offset..<(offset + count) { items.append(contents[index]) }
            offset += count
            pages.append(Page(items: items, previous: record.previous, next: record.next))
        }
        let anchor = anchorIndex.flatMap { (0..<offset).contains($0) ? $0 : nil }
        // The records form one list by construction; should they ever not, no state is better
        // than a trap.
        return try? FeedState(
            pages: pages, generation: latest.generation, anchorIndex: anchor, savedAt: clock.timeSinceEpoch)
    }

    /// Sets up a new controller's machine and store from `state`: the pages are recorded with
    /// the cursors they were fetched with (page `k > 0`: the `next` of page `k - 1`; the first
    /// page: the `previous` of the second, if any), those cursors go into the repeated-cursor
    /// guard and the items' ids into the duplicate filter. Duplicates are dropped as a load
    /// drops them (the first stays). Returns the anchor as an index of the restored list: the
    /// anchor item's, or the next kept item's when the anchor was a dropped duplicate.
    @inlinable static func _restore(
        _ state: FeedState<Item, Cursor>, into machine: inout Machine, store: inout ItemStore<Item>,
        identities: _IdentityFilter<Item>?
    ) -> Int? {
        var records: [_PageRecord<Cursor>] = []
        records.reserveCapacity(state.pages.count)
        var exportedOffset = 0
        var restoredAnchor: Int?
        for (index, page) in state.pages.enumerated() {
            let countBefore = store.count
            if let identities {
                if let anchor = state.anchorIndex, restoredAnchor == nil, anchor < exportedOffset + page.items.count {
                    // Split at the anchor to learn how many kept items come before it.
                    let before = identities.recordNew(Array(page.items[..<(anchor - exportedOffset)])).kept
                    let after = identities.recordNew(Array(page.items[(anchor - exportedOffset)...])).kept
                    restoredAnchor = countBefore + before.count
                    store.append(contentsOf: before)
                    store.append(contentsOf: after)
                } else {
                    store.append(contentsOf: identities.recordNew(page.items).kept)
                }
            } else {
                if let anchor = state.anchorIndex, restoredAnchor == nil, anchor < exportedOffset + page.items.count {
                    restoredAnchor = anchor
                }
                store.append(contentsOf: page.items)
            }
            exportedOffset += page.items.count
            records.append(_PageRecord(
                itemCount: store.count - countBefore, previous: page.previous, next: page.next,
                fetchedWith: FeedState<Item, Cursor>.fetchedCursor(ofPageAt: index, in: state.pages)))
        }
        machine.restore(pages: records)
        guard let restoredAnchor, store.count > 0 else { return nil }
        return Swift.min(restoredAnchor, store.count - 1)
    }
}

extension FeedController where Item: Identifiable {
    /// ``exportState(anchorIndex:savedBy:)`` with the anchor given by the id of the item the
    /// UI shows at the top, found by a linear search of the list (O(items)); an id not in the
    /// list saves no anchor.
    public func exportState(anchorID: Item.ID?, savedBy clock: any EpochClock = WallClock()) -> FeedState<Item, Cursor>? {
        var anchorIndex: Int?
        if let anchorID {
            let contents = store.contents
            for index in 0..<contents.count where contents[index].id == anchorID {
                anchorIndex = index
                break
            }
        }
        return exportState(anchorIndex: anchorIndex, savedBy: clock)
    }
}
