// The page and item sequences of a source.

extension PageSource {
    /// The source's pages from `cursor` (the first page by default) to the end of its data,
    /// every item kept (there are no ids to drop duplicates by); see ``PageSequence``.
    /// - Parameters:
    ///   - cursor: Where the first fetch starts; `nil` for the first page.
    ///   - configuration: Page size, retry, timeout and the empty-page limit.
    ///   - clock: The clock of the timeout and the backoff, and of ``PageRequest/clock``.
    @inlinable public func pages(
        from cursor: Cursor? = nil, configuration: FeedConfiguration = .default,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> PageSequence<Self> {
        PageSequence(source: self, startCursor: cursor, configuration: configuration, clock: clock, makeSeenIDs: nil)
    }

    /// The source's pages, items whose `id` was already returned dropped when
    /// ``FeedConfiguration/duplicates`` is ``DuplicatePolicy/drop`` (the default); see
    /// ``PageSequence``, and its memory note: the ids returned are kept.
    /// - Parameters:
    ///   - cursor: Where the first fetch starts; `nil` for the first page.
    ///   - configuration: Page size, retry, timeout, the empty-page limit and duplicates.
    ///   - clock: The clock of the timeout and the backoff, and of ``PageRequest/clock``.
    ///   - id: An item's id: a closure, or a key path such as `\.id`.
    @inlinable public func pages<ID: Hashable & Sendable>(
        from cursor: Cursor? = nil, configuration: FeedConfiguration = .default,
        clock: any Clock<Duration> = ContinuousClock(), id: @escaping @Sendable (Item) -> ID
    ) -> PageSequence<Self> {
        PageSequence(
            source: self, startCursor: cursor, configuration: configuration, clock: clock,
            makeSeenIDs: { _SeenIDs(id: id) })
    }

    /// The source's items from `cursor` to the end of its data, every item kept; see
    /// ``ItemSequence`` and `pages(from:configuration:clock:)`.
    @inlinable public func items(
        from cursor: Cursor? = nil, configuration: FeedConfiguration = .default,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ItemSequence<Self> {
        ItemSequence(pages(from: cursor, configuration: configuration, clock: clock))
    }

    /// The source's items, duplicates by `id` dropped as ``FeedConfiguration/duplicates`` says;
    /// see ``ItemSequence`` and ``pages(from:configuration:clock:id:)``.
    @inlinable public func items<ID: Hashable & Sendable>(
        from cursor: Cursor? = nil, configuration: FeedConfiguration = .default,
        clock: any Clock<Duration> = ContinuousClock(), id: @escaping @Sendable (Item) -> ID
    ) -> ItemSequence<Self> {
        ItemSequence(pages(from: cursor, configuration: configuration, clock: clock, id: id))
    }
}

extension PageSource where Item: Identifiable, Item.ID: Sendable {
    /// The source's pages, items whose `id` was already returned dropped when
    /// ``FeedConfiguration/duplicates`` is ``DuplicatePolicy/drop`` (the default, as for a
    /// feed of `Identifiable` items); see ``PageSequence``, and its memory note.
    @inlinable public func pages(
        from cursor: Cursor? = nil, configuration: FeedConfiguration = .default,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> PageSequence<Self> {
        pages(from: cursor, configuration: configuration, clock: clock, id: { $0.id })
    }

    /// The source's items, duplicates by `id` dropped as ``FeedConfiguration/duplicates`` says;
    /// see ``ItemSequence``.
    @inlinable public func items(
        from cursor: Cursor? = nil, configuration: FeedConfiguration = .default,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> ItemSequence<Self> {
        ItemSequence(pages(from: cursor, configuration: configuration, clock: clock))
    }
}
