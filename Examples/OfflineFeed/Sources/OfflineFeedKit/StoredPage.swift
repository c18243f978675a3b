/// Rows read from the database for one page, with what lies around them.
public struct StoredPage: Sendable, Equatable {
    /// The rows, in feed order.
    public var rows: [Post]
    /// Whether the table holds rows before the first of `rows` (before the key, when empty).
    public var hasBefore: Bool
    /// Whether the table holds rows after the last of `rows` (after the key, when empty).
    public var hasAfter: Bool
    /// What the network said of its ends when the rows were stored.
    public var edges: NetworkEdges
}

/// The network's cursors at the two ends of the stored rows, as the mediator saved them with
/// the rows (Paging 3's "remote keys").
public struct NetworkEdges: Sendable, Equatable {
    /// The network cursor of the page before the first stored row, if any.
    public var startCursor: String?
    /// Whether the network has nothing before the first stored row.
    public var startReached: Bool
    /// The network cursor of the page after the last stored row, if any.
    public var endCursor: String?
    /// Whether the network has nothing after the last stored row.
    public var endReached: Bool

    /// Nothing stored yet: neither end known.
    public static let unknown = NetworkEdges(startCursor: nil, startReached: false, endCursor: nil, endReached: false)

    /// Creates a pair of edges.
    public init(startCursor: String?, startReached: Bool, endCursor: String?, endReached: Bool) {
        self.startCursor = startCursor
        self.startReached = startReached
        self.endCursor = endCursor
        self.endReached = endReached
    }
}
