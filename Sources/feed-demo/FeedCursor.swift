/// Where the next page of the simulated feed starts.
///
/// A refresh opens a new *edition* of the feed (a few newer posts on top); the cursors of an
/// edition keep pointing into that edition, so a load-more never mixes two editions.
struct FeedCursor: Hashable, Sendable, CustomStringConvertible {
    /// The edition the page belongs to, 1 for the first page ever fetched.
    let edition: Int
    /// The index of the page's first item in the edition.
    let offset: Int

    var description: String { "e\(edition)+\(offset)" }
}
