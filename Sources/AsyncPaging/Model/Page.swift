/// One page of items returned by a ``PageSource``.
///
/// `next` is the cursor that asks for the page after this one; `nil` means the feed has no
/// more data after this page.
public struct Page<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// The items of this page, in display order.
    public var items: [Item]
    /// The cursor of the following page, or `nil` at the end of the data.
    public var next: Cursor?

    /// Creates a page.
    /// - Parameters:
    ///   - items: The items of this page, in display order.
    ///   - next: The cursor of the following page, or `nil` when this is the last page.
    @inlinable public init(items: [Item], next: Cursor?) {
        self.items = items
        self.next = next
    }
}

extension Page: Equatable where Item: Equatable {}
