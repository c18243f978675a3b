/// The transformed list of a feed, as one sequence that keeps only the newest: what
/// ``FeedController/rows(_:)`` returns.
///
/// Each iteration is an independent subscriber of ``FeedController/updates`` with a
/// ``FeedRowsTransformer`` of its own: it first gets the rows of the current list, then, each
/// time it asks, the rows of the newest list with their change since the rows it returned
/// before (``FeedRows/change``). Like ``FeedUpdates`` it skips versions a busy reader did not
/// ask for; the change still covers everything since its last value. It ends when the
/// controller closes (after the last rows) or when the iterating task is cancelled.
///
/// Why a sequence over the updates, not a transform inside the controller: the rows are made
/// on the reader's task, so the controller's turn costs nothing more, a feed can have readers
/// with different transforms (a list and a widget), and the engine's rules (duplicate
/// dropping, edits, restore) keep working on the items. A reader pays for its own transform,
/// once per page.
public struct FeedRowsSequence<Item: Sendable, Row: Sendable>: AsyncSequence, Sendable {
    /// Each value: the rows of one moment, with the status and load states.
    public typealias Element = FeedRows<Row>
    /// Iterating never throws.
    public typealias Failure = Never

    @usableFromInline let updates: FeedUpdates<Item>
    /// The transform each iteration applies.
    public let transform: FeedTransform<Item, Row>

    @inlinable init(updates: FeedUpdates<Item>, transform: FeedTransform<Item, Row>) {
        self.updates = updates
        self.transform = transform
    }

    /// Starts an iteration: a new subscriber whose first value is the rows of the current list.
    public func makeAsyncIterator() -> Iterator {
        Iterator(updates: updates.makeAsyncIterator(), transformer: FeedRowsTransformer(transform))
    }

    /// One subscriber of ``FeedRowsSequence``.
    public struct Iterator: AsyncIteratorProtocol {
        @usableFromInline var updates: FeedUpdates<Item>.Iterator
        @usableFromInline let transformer: FeedRowsTransformer<Item, Row>

        @inlinable init(updates: FeedUpdates<Item>.Iterator, transformer: FeedRowsTransformer<Item, Row>) {
            self.updates = updates
            self.transformer = transformer
        }

        /// The rows of the newest list this iterator has not returned, waiting for one if there
        /// is none; `nil` once the feed has closed and the last rows were returned, or when the
        /// task is cancelled while it waits.
        @inlinable public mutating func next() async -> FeedRows<Row>? {
            await next(isolation: nil)
        }

        /// ``next()``, waiting in the caller's isolation (`for await` passes it).
        @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async -> FeedRows<Row>? {
            guard let update = await updates.next(isolation: actor) else { return nil }
            return transformer.apply(update)
        }
    }
}

extension FeedController {
    /// The feed's list as a screen shows it: the rows `transform` makes of the items (a row
    /// type, a filter, separators), with changes in row indices. See ``FeedRowsSequence``.
    ///
    /// ```swift
    /// let rows = feed.rows(FeedTransform(filter: { !$0.isHidden }) { post in PostRow(post) })
    /// for await list in rows { render(list, change: list.change) }
    /// ```
    @inlinable public nonisolated func rows<Row>(_ transform: FeedTransform<Item, Row>) -> FeedRowsSequence<Item, Row> {
        FeedRowsSequence(updates: updates, transform: transform)
    }

    /// ``rows(_:)`` with the transform's functions given here.
    @inlinable public nonisolated func rows<Row>(
        filter: (@Sendable (Item) -> Bool)? = nil,
        separator: (@Sendable (_ before: Item?, _ after: Item?) -> Row?)? = nil,
        map: @escaping @Sendable (Item) -> Row
    ) -> FeedRowsSequence<Item, Row> {
        rows(FeedTransform(filter: filter, separator: separator, map: map))
    }
}
