/// An item as the network sends it (the fixture server's `/cursor` route:
/// `{"data": [{"id": 7, "title": "item 7"}], "next_cursor": "7"}`).
public struct NetworkPost: Codable, Sendable, Hashable {
    /// The item's id.
    public var id: Int
    /// Its title.
    public var title: String

    /// Creates an item.
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// The body of one page from the network: items, newest first, and the cursor of the next
/// (older) page, or `nil` at the end.
public struct NetworkPageBody: Codable, Sendable {
    /// The page's items.
    public var data: [NetworkPost]
    /// The cursor of the page after this one.
    public var next_cursor: String?
}
