/// A page cursor over the stored rows: the rows from a position on (toward the end), or the
/// rows before a position (toward the start).
///
/// Keys are positions, not offsets: rows the mediator adds at either end leave every other
/// row's position, and so every cursor the feed holds, as it was.
public enum RowKey: Hashable, Sendable, CustomStringConvertible {
    /// The rows whose position is at least this one, in order.
    case from(Int64)
    /// The rows whose position is less than this one, the nearest last.
    case before(Int64)

    /// `from(12)` or `before(12)`, for logs.
    public var description: String {
        switch self {
        case .from(let position): "from(\(position))"
        case .before(let position): "before(\(position))"
        }
    }
}
