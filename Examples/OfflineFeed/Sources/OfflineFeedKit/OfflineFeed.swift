import AsyncPaging

/// A feed whose list is read from the local database, the source of truth, and filled from the
/// network by a ``RemoteMediator``: the app opens on what is stored, loads at the ends go to the
/// network only where nothing more is stored, and the app's writes reload the list around the
/// row on screen (`FeedController.invalidate()`, through `followInvalidations(_:)`).
///
/// ```swift
/// let database = try FeedDatabase(path: path)
/// let mediator = HTTPRemoteMediator(database: database, url: apiURL)
/// let feed = try await OfflineFeed.open(database: database, mediator: mediator)
/// Task { for await snapshot in feed.controller.snapshots { render(snapshot) } }
/// let (stored, network) = await feed.start() // the stored list first, then the network's
/// feed.controller.reportVisibleRows(visibleRows) // where a local write reloads the list
/// ```
public final class OfflineFeed: Sendable {
    /// The engine: its snapshots are the list, its load states say which side failed.
    public let controller: FeedController<Post, RowKey>
    /// The database the list is read from.
    public let database: FeedDatabase
    /// Runs the mediator's loads; its ``RemoteMediatorAccessor/states`` are the network's.
    public let accessor: RemoteMediatorAccessor
    /// The controller's source.
    public let source: DatabasePageSource
    /// What the mediator asked for at start.
    public let initialAction: MediatorInitializeAction

    /// The configuration of the controller: `pageSize` items a page, items identified by id,
    /// no initial load (``start()`` makes it), a refresh that is not cancelled by a load at an
    /// end (Paging 3's rule: a load at an end waits for the network refresh through the
    /// mediator anyway), and the cursor of every loaded page kept, so that a local write
    /// reloads the page holding the row on screen (`keepsPageCursors`).
    public static func configuration(pageSize: Int) throws(FeedConfigurationError) -> FeedConfiguration {
        try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: false,
            loadMoreDuringRefresh: .ignoreLoadMore, loadPreviousDuringRefresh: .ignoreLoadPrevious,
            keepsPageCursors: true)
    }

    /// Asks `mediator` what to do at start, then creates the feed.
    public static func open(
        database: FeedDatabase,
        mediator: some RemoteMediator,
        clock: any Clock<Duration> = ContinuousClock(),
        pageSize: Int = 20
    ) async throws(FeedConfigurationError) -> OfflineFeed {
        let action = await mediator.initialize()
        return try OfflineFeed(database: database, mediator: mediator, initialAction: action, clock: clock, pageSize: pageSize)
    }

    /// Creates the feed with the mediator's initial action already known. The controller
    /// follows the database's ``FeedDatabase/invalidations`` (`followInvalidations(_:)`) until
    /// ``close()``: each local write reloads the list around the row on screen, as reported
    /// with `controller.reportVisibleRows(_:)`.
    public init(
        database: FeedDatabase,
        mediator: some RemoteMediator,
        initialAction: MediatorInitializeAction,
        clock: any Clock<Duration> = ContinuousClock(),
        pageSize: Int = 20
    ) throws(FeedConfigurationError) {
        self.database = database
        self.initialAction = initialAction
        accessor = RemoteMediatorAccessor(mediator: mediator, initialAction: initialAction)
        source = DatabasePageSource(database: database, accessor: accessor)
        let controller = FeedController(
            source: source, clock: clock, configuration: try Self.configuration(pageSize: pageSize), id: \.id)
        self.controller = controller
        // Each committed write of the app is an invalidation: the list reloads around the row
        // on screen (the page holding it, read again from the database by its key).
        controller.followInvalidations(database.invalidations)
    }

    /// Shows the stored list (no network: its result is `stored`), then, when the mediator
    /// asked for ``MediatorInitializeAction/launchInitialRefresh``, refreshes from the network
    /// (`network`; `nil` when skipped). The stored list is published before the network is
    /// asked.
    public func start() async -> (stored: LoadResult, network: LoadResult?) {
        let stored = await showStored()
        return (stored, await refreshIfLaunched())
    }

    /// The first half of ``start()``: reads the stored list from the database (no network).
    public func showStored() async -> LoadResult {
        await controller.refresh()
    }

    /// The second half of ``start()``: the network refresh when the mediator asked for
    /// ``MediatorInitializeAction/launchInitialRefresh`` (`nil` otherwise).
    public func refreshIfLaunched() async -> LoadResult? {
        initialAction == .launchInitialRefresh ? await refresh() : nil
    }

    /// Refreshes from the network: the mediator stores the network's first page in place of
    /// the stored rows, then the list is read again from the top. If the network fails, the
    /// refresh fails (``AsyncPaging/FeedLoadStates/refresh`` is `.failed`) and the list stays.
    public func refresh() async -> LoadResult {
        source.requestNetworkRefresh()
        return await controller.refresh()
    }

    /// Loads the page after the list (from the database; at its end, from the network first).
    public func loadMore() async -> LoadResult { await controller.loadMore() }

    /// Loads the page before the list (from the database; at its start, from the network first).
    public func loadPrevious() async -> LoadResult { await controller.loadPrevious() }

    /// Runs a failed side again: a failed refresh goes to the network again.
    public func retry(_ side: FeedSide) async -> LoadResult {
        side == .refresh ? await refresh() : await controller.retry(side)
    }

    /// Stops following the database and closes the controller.
    public func close() async {
        await controller.close()
    }
}
