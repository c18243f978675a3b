/// Fills the database from the network: Paging 3's `RemoteMediator`.
///
/// The feed reads only the database. When a load of the feed finds no more stored rows at an
/// end, it asks the mediator (through ``RemoteMediatorAccessor``) to fetch the network's next
/// page at that end and store it; a refresh of the feed asks it for the network's first page,
/// which replaces the stored rows. The mediator stores what it fetched, together with the
/// network's cursor, before it returns.
public protocol RemoteMediator: Sendable {
    /// Whether the feed refreshes from the network when it starts, after showing what is
    /// stored: ``MediatorInitializeAction/launchInitialRefresh`` (the default answer of an app
    /// that wants fresh data at each start) or ``MediatorInitializeAction/skipInitialRefresh``
    /// (the stored rows are recent enough; the network is asked only at the ends).
    func initialize() async -> MediatorInitializeAction

    /// Fetches the network's page for `type` and stores it. Throws the network's error (the
    /// database is then as it was); returns whether the network has no more in that direction.
    func load(_ type: MediatorLoadType) async throws -> MediatorResult
}

/// What a ``RemoteMediator`` is asked to load.
public enum MediatorLoadType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The network's first page, replacing what is stored.
    case refresh
    /// The network's page before the first stored row.
    case prepend
    /// The network's page after the last stored row.
    case append

    /// The case name.
    public var description: String { rawValue }
}

/// What a ``RemoteMediator`` does when the feed starts.
public enum MediatorInitializeAction: Sendable, Hashable {
    /// Refresh from the network once the stored list is shown; loads at the ends wait for that
    /// refresh to succeed.
    case launchInitialRefresh
    /// Do not refresh at start; loads at the ends go to the network as needed.
    case skipInitialRefresh
}

/// A successful mediator load.
public struct MediatorResult: Sendable, Hashable {
    /// Whether the network has no more items in the direction loaded (after a refresh: after
    /// its first page).
    public var endOfPaginationReached: Bool

    /// Creates a result.
    public init(endOfPaginationReached: Bool) {
        self.endOfPaginationReached = endOfPaginationReached
    }
}
