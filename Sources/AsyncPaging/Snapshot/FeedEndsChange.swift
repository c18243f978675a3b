/// Items removed from and added at the ends of a list within one generation: what a bounded
/// feed (``FeedConfiguration/maximumItems``) publishes when a load at one end drops whole
/// pages at the other.
///
/// Read it against the older list: its first ``removedAtStart`` and last ``removedAtEnd``
/// items are gone; the newer list's first ``insertedAtStart`` and last ``insertedAtEnd`` items
/// are new; the items in between are the same, in the same order. A table view deletes the
/// older rows `0 ..< removedAtStart` and the last `removedAtEnd` rows, then inserts the newer
/// rows `0 ..< insertedAtStart` and the last `insertedAtEnd` rows (``removedRanges(olderCount:)``
/// and ``insertedRanges(newerCount:)`` give them as ranges).
public struct FeedEndsChange: Sendable, Hashable, CustomStringConvertible {
    /// Items of the older list removed at its start.
    public var removedAtStart: Int
    /// Items of the newer list added at its start.
    public var insertedAtStart: Int
    /// Items of the newer list added at its end.
    public var insertedAtEnd: Int
    /// Items of the older list removed at its end.
    public var removedAtEnd: Int

    /// Describes a change at the ends of a list.
    public init(removedAtStart: Int = 0, insertedAtStart: Int = 0, insertedAtEnd: Int = 0, removedAtEnd: Int = 0) {
        self.removedAtStart = removedAtStart
        self.insertedAtStart = insertedAtStart
        self.insertedAtEnd = insertedAtEnd
        self.removedAtEnd = removedAtEnd
    }

    /// Add it to an older index to find the same item in the newer list (for an item that was
    /// not removed): `insertedAtStart - removedAtStart`.
    public var indexShift: Int { insertedAtStart - removedAtStart }

    /// The indices of the older list that were removed, at its start and at its end (either
    /// may be empty). `olderCount` is the older list's count.
    public func removedRanges(olderCount: Int) -> (atStart: Range<Int>, atEnd: Range<Int>) {
        (0..<removedAtStart, (olderCount - removedAtEnd)..<olderCount)
    }

    /// The indices of the newer list that are new, at its start and at its end (either may be
    /// empty). `newerCount` is the newer list's count.
    public func insertedRanges(newerCount: Int) -> (atStart: Range<Int>, atEnd: Range<Int>) {
        (0..<insertedAtStart, (newerCount - insertedAtEnd)..<newerCount)
    }

    /// The counts in a compact form for logs, e.g. `-20 +0 | +20 -0`.
    public var description: String {
        "-\(removedAtStart) +\(insertedAtStart) | +\(insertedAtEnd) -\(removedAtEnd)"
    }
}
