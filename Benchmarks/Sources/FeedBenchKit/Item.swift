/// The item every contender pages: two words, no heap storage, so that a page costs only what
/// the paging code itself allocates.
public struct FeedItem: Sendable, Hashable {
    public var id: Int
    public var score: Int

    public init(id: Int, score: Int) {
        self.id = id
        self.score = score
    }
}

/// Items `0..<count`, built once per benchmark and shared by every contender.
public func makeItems(_ count: Int, startingAt first: Int = 0) -> [FeedItem] {
    (first..<first + count).map { FeedItem(id: $0, score: $0 &* 31) }
}

/// The page size of every scenario.
public let benchPageSize = 20
