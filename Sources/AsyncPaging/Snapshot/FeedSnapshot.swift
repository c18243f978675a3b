/// An immutable version of a feed's list, as published by ``FeedController/snapshots``.
///
/// A snapshot is a `RandomAccessCollection` of the items. Making and publishing one copies no
/// items: every snapshot shares the controller's append-only storage, so holding on to old
/// snapshots is cheap and always safe.
///
/// ``version`` grows by one with every change. A subscriber that reads slowly may skip
/// versions (the stream keeps only the newest); it can tell from a gap in ``version`` and ask
/// ``change(since:)`` what changed since the snapshot it saw last.
public struct FeedSnapshot<Item: Sendable>: RandomAccessCollection, Sendable {
    /// Grows by one with every published change; 0 for the initial empty list.
    public let version: UInt64
    /// Grows by one with every replacement (refresh); appends and prepends keep it.
    public let generation: UInt64
    /// What changed since the previous version.
    public let change: FeedChange
    @usableFromInline let contents: ItemStoreContents<Item>
    /// The edits laid over `contents` (updated and removed items), if any.
    @usableFromInline let overlay: _EditOverlay<Item>?

    @inlinable init(
        version: UInt64, generation: UInt64, change: FeedChange, contents: ItemStoreContents<Item>,
        overlay: _EditOverlay<Item>? = nil
    ) {
        self.version = version
        self.generation = generation
        self.change = change
        self.contents = contents
        self.overlay = overlay
    }

    /// The initial empty list.
    @inlinable static var initial: FeedSnapshot { FeedSnapshot(version: 0, generation: 0, change: .initial, contents: .empty) }

    /// The position of the first item: always 0.
    @inlinable public var startIndex: Int { 0 }
    /// The position after the last item: the number of items.
    @inlinable public var endIndex: Int {
        if let overlay { return contents.count - overlay.removed.count }
        return contents.count
    }

    /// The item at `position`, which must be in `startIndex..<endIndex`.
    @inlinable public subscript(position: Int) -> Item {
        if let overlay {
            precondition(position >= 0 && position < endIndex, "index \(position) out of range 0..<\(endIndex)")
            return overlay.item(at: position, in: contents)
        }
        return contents[position]
    }

    /// The counts that ``change(since:)`` compares: the store's, without removed items.
    @inlinable var visibleCounts: _ItemStoreCounts {
        if let overlay { return overlay.visibleCounts(of: contents) }
        return contents.counts
    }

    /// The number of edits made in this generation when this snapshot was made.
    @inlinable var editNumber: Int { overlay?.editNumber ?? 0 }

    /// What changed between `older` and this snapshot, even across skipped versions: within
    /// one generation, `.appended`, `.prepended` or (items added at both ends) `.extended`, or
    /// `.ends` when items were dropped at an end (a bounded feed); from the version just before
    /// a reload, `.reloaded` (``FeedController/invalidate()``); `.replaced` otherwise — a
    /// refresh, or an edit (`update(_:)` and the others) between the two
    /// versions: a UI that skipped an edit's version reloads the list. (The edit's own version
    /// says exactly what it changed: `.updated`, `.removed` or `.prepended`.)
    @inlinable public func change(since older: FeedSnapshot) -> FeedChange {
        guard older.generation == generation, older.editNumber == editNumber else {
            // A reload's own change, from the version just before it, says where the anchor went.
            if case .reloaded = change, older.version &+ 1 == version { return change }
            return .replaced
        }
        return visibleCounts.change(since: older.visibleCounts)
    }
}

extension FeedSnapshot: CustomStringConvertible {
    /// The version, generation, change and count (not the items), for logs.
    public var description: String {
        "FeedSnapshot(version: \(version), generation: \(generation), change: \(change), count: \(count))"
    }
}
