/// The items of a ``PageSource``, page after page to the end of its data, as an `AsyncSequence`:
/// a ``PageSequence`` read one item at a time.
///
/// ```swift
/// for try await item in source.items(configuration: configuration) {
///     print(item)
/// }
/// ```
///
/// Everything ``PageSequence`` says holds: retries, timeout, the repeated-cursor and
/// empty-page guards, duplicates dropped by id, typed ``FeedFailure`` errors, cancellation of the
/// fetch with the iterating task. A page is fetched when the items of the one before have all
/// been read, and only that page is kept.
public struct ItemSequence<Source: PageSource>: AsyncSequence, Sendable {
    /// The type of the source's items.
    public typealias Item = Source.Item
    /// An item.
    public typealias Element = Item
    /// The error an iteration throws.
    public typealias Failure = FeedFailure

    /// The pages the items come from.
    public let pages: PageSequence<Source>

    /// The items of `pages`, in order.
    @inlinable public init(_ pages: PageSequence<Source>) {
        self.pages = pages
    }

    /// Starts an iteration from the first page (or the cursor the sequence was made with).
    @inlinable public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator())
    }

    /// An iteration over the items; see ``ItemSequence``.
    public struct Iterator: AsyncIteratorProtocol {
        /// An item.
        public typealias Element = Item
        /// The error an iteration throws.
        public typealias Failure = FeedFailure

        @usableFromInline var pages: PageSequence<Source>.Iterator
        /// The items of the current page, and the next one to return.
        @usableFromInline var items: [Item] = []
        @usableFromInline var index = 0

        @inlinable init(pages: PageSequence<Source>.Iterator) {
            self.pages = pages
        }

        /// The next item, or `nil` at the end of the data (and after an error).
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(FeedFailure) -> Item? {
            if index < items.count {
                defer { index += 1 }
                return items[index]
            }
            return try await nextFromNextPage()
        }

        /// The next item, or `nil` at the end of the data (and after an error).
        @inlinable public mutating func next() async throws(FeedFailure) -> Item? {
            if index < items.count {
                defer { index += 1 }
                return items[index]
            }
            return try await nextFromNextPage()
        }

        @inlinable nonisolated(nonsending) mutating func nextFromNextPage() async throws(FeedFailure) -> Item? {
            items = [] // the page read is released before the next one is fetched
            guard let page = try await pages.nextPage() else { return nil }
            items = page.items
            index = 1
            return items[0] // a page from the sequence is never empty
        }
    }
}
