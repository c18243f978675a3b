/// One page of items returned by a ``PageSource``.
///
/// `next` is the cursor that asks for the page after this one, `previous` the cursor that asks
/// for the page before it; `nil` means the data has no more items in that direction. A source
/// that only pages forward leaves `previous` out: its list starts at its first page.
public struct Page<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// The items of this page, in display order.
    public var items: [Item]
    /// The cursor of the page before this one, or `nil` at the start of the data.
    public var previous: Cursor?
    /// The cursor of the following page, or `nil` at the end of the data.
    public var next: Cursor?

    /// Creates a page of a feed that only pages forward: nothing comes before it.
    /// - Parameters:
    ///   - items: The items of this page, in display order.
    ///   - next: The cursor of the following page, or `nil` when this is the last page.
    @inlinable public init(items: [Item], next: Cursor?) {
        self.items = items
        self.previous = nil
        self.next = next
    }

    /// Creates a page that knows its neighbours in both directions.
    /// - Parameters:
    ///   - items: The items of this page, in display order.
    ///   - previous: The cursor of the page before this one, or `nil` when this is the first page.
    ///   - next: The cursor of the following page, or `nil` when this is the last page.
    @inlinable public init(items: [Item], previous: Cursor?, next: Cursor?) {
        self.items = items
        self.previous = previous
        self.next = next
    }
}

extension Page: Equatable where Item: Equatable {}
