extension FeedController where Item: Identifiable, Item.ID: Sendable {
    /// Creates a controller for `Identifiable` items: items whose `id` is already in the list
    /// are handled by ``FeedConfiguration/duplicates`` (dropped and counted by default);
    /// `restoring:` (a saved ``FeedState`` to show at once), `restorePolicy:` and `refreshStart:` as on the
    /// initializer with a source and no `id`.
    @inlinable public init(
        source: some PageSource<Item, Cursor>,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        initialCursor: Cursor? = nil,
        restoring: FeedState<Item, Cursor>? = nil,
        restorePolicy: RestorePolicy = .always,
        refreshStart: RestoredRefreshStart = .savedFirstPage
    ) {
        self.init(
            source: source, clock: clock, configuration: configuration, initialCursor: initialCursor,
            identities: configuration.duplicates == .drop ? _IdentityFilter() : nil,
            restoring: restoring, restorePolicy: restorePolicy, refreshStart: refreshStart)
    }

    /// Creates a controller for `Identifiable` items whose source is a closure; `restoring:`
    /// (a saved ``FeedState`` to show at once), `restorePolicy:` and `refreshStart:` as on the initializer with
    /// a source and no `id`.
    @inlinable public init(
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: FeedConfiguration = .default,
        initialCursor: Cursor? = nil,
        restoring: FeedState<Item, Cursor>? = nil,
        restorePolicy: RestorePolicy = .always,
        refreshStart: RestoredRefreshStart = .savedFirstPage,
        fetch: @escaping @Sendable (PageRequest<Cursor>) async throws -> Page<Item, Cursor>
    ) {
        self.init(
            source: ClosurePageSource(fetch), clock: clock, configuration: configuration, initialCursor: initialCursor,
            identities: configuration.duplicates == .drop ? _IdentityFilter() : nil,
            restoring: restoring, restorePolicy: restorePolicy, refreshStart: refreshStart)
    }
}

extension Result {
    @inlinable var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
