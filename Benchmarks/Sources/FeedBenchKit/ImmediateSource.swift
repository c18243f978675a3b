import AsyncPaging

/// A source that answers at once: the first page is `firstPage` (any length, so a scenario can
/// start from a feed of a million items), every later page is the same prebuilt `page`.
///
/// Returning prebuilt arrays keeps the source out of the malloc counts: what is counted is
/// what the contender does with a page, not how the page was made.
public struct ImmediateSource<Item: BenchItem>: PageSource {
    public let firstPage: [Item]
    public let page: [Item]

    public init(firstPage: [Item], page: [Item] = makeItems(benchPageSize)) {
        self.firstPage = firstPage
        self.page = page
    }

    // The engine and the floor call it through `any PageSource`: see `makeAppendHarness`.
    @_specialize(where Item == FeedItem)
    @_specialize(where Item == PostItem)
    @_specialize(where Item == IdentifiedPost)
    public func page(for request: PageRequest<Int>) async throws -> Page<Item, Int> {
        guard let cursor = request.cursor else { return Page(items: firstPage, next: 1) }
        return Page(items: page, next: cursor + 1)
    }
}

/// A source whose first page answers at once and whose load-mores never answer: they wait
/// until their task is cancelled, so a refresh always finds one in flight. Scenario 3 only,
/// with ``FeedItem``s.
public struct HangingLoadMoreSource: PageSource {
    public let firstPage: [FeedItem]

    public init(firstPage: [FeedItem] = makeItems(benchPageSize)) {
        self.firstPage = firstPage
    }

    public func page(for request: PageRequest<Int>) async throws -> Page<FeedItem, Int> {
        guard let cursor = request.cursor else { return Page(items: firstPage, next: 1) }
        try await Task.sleep(for: .seconds(86_400))
        return Page(items: [], next: cursor + 1)
    }
}
