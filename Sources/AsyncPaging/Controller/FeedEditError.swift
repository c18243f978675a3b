/// Why an edit (`update(_:)`, `update(id:_:)`,
/// `remove(ids:)`, `insertAtTop(_:)`) was refused. The list
/// is unchanged.
public enum FeedEditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No item with this id is in the list (it may have been dropped by the bound, or never
    /// loaded, or be of another type than the feed's ids). The id, as text. Thrown by
    /// `update(_:)` and `update(id:_:)`; `remove(ids:)` skips unknown ids instead (removal is
    /// idempotent).
    case notFound(String)
    /// The change given to `update(id:_:)` changed the item's id.
    case idChanged(String)
    /// An item to insert has the id of an item in the list, or of another item inserted with it.
    case duplicateID(String)
    /// Edits find items by id, which needs ids to be unique: the configuration keeps duplicates
    /// (``DuplicatePolicy/keep``), or the feed has no ids (its items are not `Identifiable` and
    /// it was created without `id:`).
    case requiresUniqueIDs
    /// No first page is in yet: there is no list to insert into.
    case noList
    /// The controller is closed.
    case closed

    /// What was refused, in words.
    public var description: String {
        switch self {
        case .notFound(let id): "no item with id \(id) is in the list"
        case .idChanged(let id): "the update changed the id of item \(id)"
        case .duplicateID(let id): "an item with id \(id) is in the list already"
        case .requiresUniqueIDs: "edits need unique ids: the configuration keeps duplicates, or the feed has no ids"
        case .noList: "no first page is in yet"
        case .closed: "the controller is closed"
        }
    }
}
