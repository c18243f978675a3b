/// One post of the simulated feed.
///
/// Posts are numbered: a higher number is a newer post. Everything else about a post (its
/// author, title and likes) follows from its number and the seed, so the same post always
/// reads the same, whichever page or refresh brought it.
struct FeedItem: Identifiable, Sendable, Hashable, ListRow {
    /// The post number, which is also its identity.
    let id: Int
    let author: String
    let title: String
    let likes: Int
    /// Where the post is in its edition of the feed: 0 for the newest.
    let position: Int

    /// The post numbered `id`, at `position` in its edition (0: the newest), in the world made
    /// from `seed`.
    init(id: Int, position: Int, seed: UInt64) {
        var random = SeededRandom(mixing: seed, UInt64(bitPattern: Int64(id)), 0x1713)
        self.id = id
        self.position = position
        author = FeedItem.authors[Int(random.next() % UInt64(FeedItem.authors.count))]
        let opening = FeedItem.openings[Int(random.next() % UInt64(FeedItem.openings.count))]
        let topic = FeedItem.topics[Int(random.next() % UInt64(FeedItem.topics.count))]
        title = "\(opening) \(topic)"
        likes = Int(random.next() % 500)
    }

    var idLabel: String { "#\(id)" }

    /// Row 1 is the newest post of the edition, so `--open-at 40` opens at row 41.
    var rowNumber: Int? { position + 1 }

    /// One line of the list, without its position; the `#number` takes `idWidth` characters.
    func line(idWidth: Int = 0) -> String {
        let number = idLabel.padded(to: idWidth)
        return "\(number)  \(author.padded(to: 9)) \(title) (\(likes) likes)"
    }

    private static let authors = [
        "ada", "grace", "linus", "barbara", "ken", "margaret", "dennis", "frances",
        "alan", "katherine", "edsger", "radia", "john", "hedy", "donald", "sophie",
    ]
    private static let openings = [
        "Notes on", "Why I stopped worrying about", "A short guide to", "Thoughts about",
        "Benchmarking", "Debugging", "Rethinking", "Shipping", "Lessons from", "Testing",
        "The hidden cost of", "In defence of",
    ]
    private static let topics = [
        "async sequences", "cursor pagination", "pull to refresh", "actor reentrancy",
        "terminal UIs", "task cancellation", "back-pressure", "retry budgets",
        "snapshot diffs", "tail latency", "infinite scrolling", "test clocks",
        "structured concurrency", "empty states", "flaky networks", "spinners",
    ]
}

extension String {
    /// The string cut or padded with spaces to exactly `width` characters.
    func padded(to width: Int) -> String {
        if count >= width { return String(prefix(width)) }
        return self + String(repeating: " ", count: width - count)
    }
}
