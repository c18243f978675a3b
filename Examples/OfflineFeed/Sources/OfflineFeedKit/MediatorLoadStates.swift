/// What the mediator is doing at each of its load types, as ``RemoteMediatorAccessor``
/// reports it (Paging 3's `mediator` load states). The feed's own
/// ``AsyncPaging/FeedLoadStates`` say the same for the list a user sees: a mediator failure
/// at an end with nothing stored there fails that side of the feed.
public struct MediatorLoadStates: Sendable, Equatable, CustomStringConvertible {
    /// The network refresh.
    public var refresh: MediatorLoadState
    /// Loads before the first stored row.
    public var prepend: MediatorLoadState
    /// Loads after the last stored row.
    public var append: MediatorLoadState

    /// Nothing ran yet.
    public static let idle = MediatorLoadStates(refresh: .idle, prepend: .idle, append: .idle)

    /// Creates a set of states.
    public init(refresh: MediatorLoadState, prepend: MediatorLoadState, append: MediatorLoadState) {
        self.refresh = refresh
        self.prepend = prepend
        self.append = append
    }

    /// The state of `type`.
    public subscript(type: MediatorLoadType) -> MediatorLoadState {
        get {
            switch type {
            case .refresh: refresh
            case .prepend: prepend
            case .append: append
            }
        }
        set {
            switch type {
            case .refresh: refresh = newValue
            case .prepend: prepend = newValue
            case .append: append = newValue
            }
        }
    }

    /// The three states in a compact form for logs.
    public var description: String { "refresh: \(refresh), prepend: \(prepend), append: \(append)" }
}

/// What the mediator is doing at one load type.
public enum MediatorLoadState: Sendable, Equatable, CustomStringConvertible {
    /// Not loading; more may come.
    case idle
    /// A load runs (or waits for its turn).
    case loading
    /// The last load failed with this error (described).
    case failed(String)
    /// The network has no more in this direction (until the next successful refresh).
    case complete

    /// The case in a compact form for logs.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .failed(let error): "failed(\(error))"
        case .complete: "complete"
        }
    }
}
