import GRDB

/// One row of the feed as the database stores it and the screen shows it.
///
/// `position` orders the rows: the mediator gives rows appended at the end positions after the
/// last one, and rows prepended at the start positions before the first one, so that a row
/// keeps its position (and a page cursor keeps its meaning) while the table grows at both ends.
public struct Post: Codable, Sendable, Hashable, Identifiable, FetchableRecord, PersistableRecord {
    /// The item's id on the server; unique in the table.
    public var id: Int
    /// The text shown on screen.
    public var title: String
    /// Where the row sorts in the feed.
    public var position: Int64

    /// Creates a row.
    public init(id: Int, title: String, position: Int64) {
        self.id = id
        self.title = title
        self.position = position
    }

    /// The table's name.
    public static let databaseTableName = "post"
}
