/// What changed between two versions of a transformed list (``FeedRows``), in row indices.
///
/// A subscriber that keeps its own array of rows applies it to end with exactly the newer list:
/// see ``apply(to:from:)``.
public enum FeedRowsChange: Sendable, Hashable, CustomStringConvertible {
    /// The rows are the same as in the previous value (its status or load states changed).
    case unchanged
    /// The whole list was replaced (the first list, a refresh, or a skipped edit).
    case replaced
    /// Rows were removed at one or both ends of the older list and added at one or both ends of
    /// the newer one; the rows in between are the same (pages that landed, pages the bound
    /// dropped, items inserted at the top, a header or footer that came or went). Read it as
    /// ``FeedChange/ends(_:)``.
    case ends(FeedEndsChange)
    /// Rows changed in the middle (an edit, or a neighbour's separator): `removed` are indices
    /// of the older list (ascending), `inserted` indices of the newer list (ascending),
    /// `updated` indices of the newer list (ascending) whose rows were made again. Remove the
    /// `removed` rows (from the highest index down), insert the `inserted` rows (from the lowest
    /// up), then replace the `updated` rows.
    case rows(removed: [Int], inserted: [Int], updated: [Int])

    /// Applies the change to `rows`, the older list, with the rows of `newer`: afterwards `rows`
    /// equals `newer`. `.replaced` copies `newer`.
    public func apply<Row>(to rows: inout [Row], from newer: some RandomAccessCollection<Row>) where Row: Sendable {
        switch self {
        case .unchanged:
            return
        case .replaced:
            rows = Array(newer)
        case .ends(let change):
            let newerRows = Array(newer)
            rows.removeLast(change.removedAtEnd)
            rows.removeFirst(change.removedAtStart)
            rows.insert(contentsOf: newerRows.prefix(change.insertedAtStart), at: 0)
            rows.append(contentsOf: newerRows.suffix(change.insertedAtEnd))
        case .rows(let removed, let inserted, let updated):
            let newerRows = Array(newer)
            for index in removed.reversed() { rows.remove(at: index) }
            for index in inserted { rows.insert(newerRows[index], at: index) }
            for index in updated { rows[index] = newerRows[index] }
        }
    }

    /// The change in a compact form for logs.
    public var description: String {
        switch self {
        case .unchanged: "unchanged"
        case .replaced: "replaced"
        case .ends(let change): "ends(\(change))"
        case .rows(let removed, let inserted, let updated): "rows(removed: \(removed), inserted: \(inserted), updated: \(updated))"
        }
    }
}
