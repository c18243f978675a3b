/// Errors of the offline feed's own rules (the network's errors reach the feed as they are).
public enum OfflineFeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A load at an end needed the network, but the mediator waits for a successful refresh
    /// first (its initial action was ``MediatorInitializeAction/launchInitialRefresh`` and no
    /// refresh succeeded yet, or the last refresh failed): refresh, then load again.
    case refreshRequired
    /// The mediator said it stored a page at an end, but the database has no new row there.
    case mediatorStoredNothing(MediatorLoadType)

    /// A sentence for logs.
    public var description: String {
        switch self {
        case .refreshRequired: "the network waits for a refresh before loading at the ends"
        case .mediatorStoredNothing(let type): "the mediator's \(type) stored no row"
        }
    }
}
