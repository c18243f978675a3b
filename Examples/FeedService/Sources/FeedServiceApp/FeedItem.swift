/// An item of the example feed.
public struct FeedItem: Codable, Sendable, Hashable {
    /// Unique, newest highest.
    public let id: Int
    /// Its text.
    public let title: String

    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}
