// The hook a ``FeedSessionRegistry`` with a ``FeedSessionStore`` uses to save what changes:
// the controller records each applied page (``_FeedSessionJournal``), and the registry takes
// the records in one turn of the controller's actor, so that a whole-list export and the page
// records never overlap (a page applied after the export is in the next take, not in both).
extension FeedController {
    /// Starts recording changes for a registry. `restoredGeneration` is the generation of the
    /// state the controller was restored from (`nil`: not restored): if a refresh has already
    /// replaced that list, the whole list is marked to be saved.
    func _attachSessionJournal(restoredGeneration: UInt64?, onChange: @escaping @Sendable () -> Void) {
        let journal = _FeedSessionJournal<Item, Cursor>(onChange: onChange)
        if let restoredGeneration, published.generation != restoredGeneration {
            journal.recordWholeList()
        }
        _sessionJournal = journal
    }

    /// The records to save since the last take: the page records, or the whole list as one
    /// ``FeedSessionRecord/replaced(_:)`` when a change needs it or `wholeList` is asked for.
    /// Empty when nothing changed, or when there is no list yet (before the first page).
    /// - Throws: ``FeedSessionStoreError/invalidRecord(_:)`` when the list cannot be exported
    ///   (``exportState(anchorIndex:savedBy:)``'s error says why); nothing is saved then.
    func _takeSessionRecords(wholeList: Bool) throws(FeedSessionStoreError) -> [FeedSessionRecord<Item, Cursor>] {
        guard let journal = _sessionJournal else { return [] }
        let taken = journal.take()
        if wholeList || taken.wholeList {
            let exported: FeedState<Item, Cursor>?
            do { exported = try exportState() } catch {
                journal.recordWholeList() // tried again on the next save
                throw .invalidRecord("the list cannot be exported: \(error)")
            }
            guard let state = exported else { return [] }
            return [.replaced(state)]
        }
        return taken.records
    }
}
