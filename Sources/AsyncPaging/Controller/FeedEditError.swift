/// Why an edit (``FeedController/update(_:)``, ``FeedController/update(id:_:)``,
/// ``FeedController/remove(ids:)``, ``FeedController/insertAtTop(_:)``) was refused. The list
/// is unchanged.
public enum FeedEditError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No item with this id is in the list (it may have been dropped by the bound, or never
    /// loaded). The id, as text. Thrown by ``FeedController/update(_:)`` and
    /// ``FeedController/update(id:_:)``; ``FeedController/remove(ids:)`` skips unknown ids
    /// instead (removal is idempotent).
    case notFound(String)
    /// The change given to ``FeedController/update(id:_:)`` changed the item's id.
    case idChanged(String)
    /// An item to insert has the id of an item in the list, or of another item inserted with it.
    case duplicateID(String)
    /// Edits find items by id, which needs ids to be unique: the configuration keeps duplicates
    /// (``DuplicatePolicy/keep``).
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
        case .requiresUniqueIDs: "edits need unique ids, and the configuration keeps duplicates"
        case .noList: "no first page is in yet"
        case .closed: "the controller is closed"
        }
    }
}
