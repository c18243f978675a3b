/// What a screen shows of a feed's items: each item mapped to a row, the items a filter keeps,
/// and separator rows between two neighbouring items (a date header between messages of
/// different days), before the first item and after the last.
///
/// Give it to ``FeedController/rows(_:)``, whose sequence publishes the transformed list
/// (``FeedRows``) with changes that stay index-correct for the rows. The functions run as pages
/// land: once for each new item, and again only for the items an edit changes or whose
/// neighbour changed (see <doc:ShapingRows>), never over the whole list for each update.
///
/// The stages run in this order: ``filter`` decides which items are shown; ``separator`` is
/// called with two items the filter kept that are neighbours among the kept items (the
/// filtered-out items between them are skipped); ``map`` makes each kept item's row. The
/// separator is called with `nil` before the first kept item only once the start of the data is
/// reached (``FeedLoadStates/loadPrevious`` is ``FeedLoadState/reachedEnd``), and with `nil`
/// after the last kept item once the end is reached: a header and a footer. It is never called
/// with two `nil`s: an empty list has no rows.
///
/// The functions must be pure: the same items give the same rows. They are called on the task
/// that iterates the rows, not on the controller.
///
/// Why a value rather than three parameters: a transform is made once (often beside the row
/// type) and passed to every place that shows the feed; it can gain stages without new
/// overloads of ``FeedController/rows(_:)``.
public struct FeedTransform<Item: Sendable, Row: Sendable>: Sendable {
    /// Makes the row of a kept item.
    public let map: @Sendable (Item) -> Row
    /// Whether an item is shown; `nil` keeps every item.
    public let filter: (@Sendable (Item) -> Bool)?
    /// The row between two neighbouring kept items (`before`, `after`), if any; `before` is
    /// `nil` for a header and `after` is `nil` for a footer. `nil`: no separators.
    public let separator: (@Sendable (_ before: Item?, _ after: Item?) -> Row?)?

    /// Creates a transform.
    /// - Parameters:
    ///   - filter: Whether an item is shown (every item when `nil`).
    ///   - separator: The row between two neighbouring kept items, if any (see the type).
    ///   - map: The row of a kept item.
    public init(
        filter: (@Sendable (Item) -> Bool)? = nil,
        separator: (@Sendable (_ before: Item?, _ after: Item?) -> Row?)? = nil,
        map: @escaping @Sendable (Item) -> Row
    ) {
        self.map = map
        self.filter = filter
        self.separator = separator
    }

    /// The rows of `items` from scratch, with a header when `startReached` and a footer when
    /// `endReached`: what ``FeedRows`` holds for that list. O(items); for tests and for lists
    /// that are not a feed's.
    public func rows(of items: some Sequence<Item>, startReached: Bool, endReached: Bool) -> [Row] {
        var rows: [Row] = []
        var previous: Item?
        for item in items where filter?(item) ?? true {
            if let separator {
                if let previous {
                    if let row = separator(previous, item) { rows.append(row) }
                } else if startReached, let header = separator(nil, item) {
                    rows.append(header)
                }
            }
            rows.append(map(item))
            previous = item
        }
        if endReached, let separator, let previous, let footer = separator(previous, nil) { rows.append(footer) }
        return rows
    }
}

extension FeedTransform where Item == Row {
    /// A transform that keeps the items as rows: a filter and separators of the item type.
    public init(
        filter: (@Sendable (Item) -> Bool)? = nil,
        separator: (@Sendable (_ before: Item?, _ after: Item?) -> Row?)? = nil
    ) {
        self.init(filter: filter, separator: separator, map: { $0 })
    }
}
