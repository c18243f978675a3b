/// A feed's list as a screen shows it: the rows a ``FeedTransform`` makes of one
/// ``FeedSnapshot``, with the status and load states of the same moment, and what changed since
/// the value before it. One value of ``FeedController/rows(_:)``.
///
/// A `RandomAccessCollection` of the rows. Like a snapshot it copies no rows when it is made:
/// it shares the subscriber's append-only storage, so holding on to older values is cheap.
public struct FeedRows<Row: Sendable>: RandomAccessCollection, Sendable {
    /// The ``FeedSnapshot/version`` of the list these rows were made from.
    public let version: UInt64
    /// The ``FeedSnapshot/generation`` of that list.
    public let generation: UInt64
    /// What changed since the value this sequence returned before, in row indices.
    public let change: FeedRowsChange
    /// The feed's status at that moment.
    public let status: FeedStatus
    /// What each side was doing at that moment.
    public let loadStates: FeedLoadStates
    @usableFromInline let contents: ItemStoreContents<Row>

    @inlinable init(
        version: UInt64, generation: UInt64, change: FeedRowsChange, status: FeedStatus,
        loadStates: FeedLoadStates, contents: ItemStoreContents<Row>
    ) {
        self.version = version
        self.generation = generation
        self.change = change
        self.status = status
        self.loadStates = loadStates
        self.contents = contents
    }

    /// The position of the first row: always 0.
    @inlinable public var startIndex: Int { 0 }
    /// The position after the last row: the number of rows.
    @inlinable public var endIndex: Int { contents.count }

    /// The row at `position`, which must be in `startIndex..<endIndex`.
    @inlinable public subscript(position: Int) -> Row { contents[position] }
}

extension FeedRows: CustomStringConvertible {
    /// The version, change, count and status (not the rows), for logs.
    public var description: String {
        "FeedRows(version: \(version), change: \(change), count: \(count), status: \(status))"
    }
}
