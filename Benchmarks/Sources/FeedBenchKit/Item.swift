/// An item the benchmarks page: made from its index, so that every contender gets the same
/// items, and named, so that the figures of each item type get keys and tables of their own.
public protocol BenchItem: Sendable, Hashable {
    /// A short name for keys and tables ("two-word", "post").
    static var benchName: String { get }

    /// The item at `benchIndex` of a feed (or of a page).
    init(benchIndex: Int)
}

/// The item every scenario pages: two words (16 bytes), no heap storage, so that a page costs
/// only what the paging code itself allocates. Copying a list of them is a plain `memcpy`:
/// the cheapest a list that is copied per page (the seed and Combine ports) can ever be.
public struct FeedItem: BenchItem {
    public var id: Int
    public var score: Int

    public init(id: Int, score: Int) {
        self.id = id
        self.score = score
    }

    public static var benchName: String { "two-word" }

    public init(benchIndex index: Int) {
        self.init(id: index, score: index &* 31)
    }
}

/// An item shaped like a real feed's post: an id and two strings, each distinct and longer
/// than 15 UTF-8 bytes, so that each lives in a heap buffer of its own (as a post's text does)
/// rather than inline in the `String`. 40 bytes and two references per item.
///
/// It exists to price what ``FeedItem`` hides: copying a list of posts costs a retain per
/// string (and dropping the old list a release), so a contender that copies its whole list on
/// every page (`items + page`) pays per item in the list, not just per `memcpy`ed byte.
/// Scenarios 1 and 2 run with both item types, side by side.
public struct PostItem: BenchItem {
    public var id: Int
    public var title: String
    public var author: String

    public init(id: Int, title: String, author: String) {
        self.id = id
        self.title = title
        self.author = author
    }

    public static var benchName: String { "post" }

    public init(benchIndex index: Int) {
        self.init(
            id: index,
            title: "Post \(index): a title long enough to live on the heap",
            author: "author-\(index)@example.com")
    }
}

/// Items `first..<first + count`, built once per benchmark and shared by every contender.
public func makeItems<Item: BenchItem>(
    _ count: Int, startingAt first: Int = 0, of _: Item.Type = Item.self
) -> [Item] {
    (first..<first + count).map { Item(benchIndex: $0) }
}

/// The page size of every scenario.
public let benchPageSize = 20

/// A post as an app declares it: ``PostItem``'s fields, `Identifiable`, so that the engine is
/// made with its `Identifiable` initializer and drops duplicates by id (the default). The
/// headline scenario of the instruction suite.
public struct IdentifiedPost: BenchItem, Identifiable {
    public var id: Int
    public var title: String
    public var author: String

    public static var benchName: String { "identified-post" }

    public init(benchIndex index: Int) {
        id = index
        title = "Post \(index): a title long enough to live on the heap"
        author = "author-\(index)@example.com"
    }
}
