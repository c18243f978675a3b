/// What a controller remembers of the last snapshot it published: its version, its generation
/// and its visible counts (to tell the next snapshot's change). The snapshot itself is kept
/// only by the broadcaster (``FeedController/currentSnapshot``); the controller makes the list
/// as shown from its store and edit overlay when it needs to read items (``FeedController/shownList``).
@usableFromInline struct _PublishedList: Sendable {
    @usableFromInline let version: UInt64
    @usableFromInline let generation: UInt64
    /// The published list's counts, edits included (``FeedSnapshot/visibleCounts``).
    @usableFromInline let counts: _ItemStoreCounts

    /// Before the first snapshot: version 0, no items.
    @inlinable init() {
        version = 0
        generation = 0
        counts = _ItemStoreCounts(count: 0, addedAtStart: 0, droppedAtStart: 0, droppedAtEnd: 0)
    }

    @inlinable init(_ snapshot: FeedSnapshot<some Sendable>) {
        version = snapshot.version
        generation = snapshot.generation
        counts = snapshot.visibleCounts
    }
}
