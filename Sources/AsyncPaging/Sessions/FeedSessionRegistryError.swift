/// Why a ``FeedSessionRegistry`` could not be created, or refused or failed a session.
public enum FeedSessionRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The idle timeout must be positive.
    case nonPositiveIdleTimeout(Duration)
    /// The maximum count must be at least 1.
    case invalidMaximumCount(Int)
    /// The maximum number of sessions per owner must be at least 1.
    case invalidMaximumSessionsPerOwner(Int)
    /// A new session was refused: the registry holds ``FeedSessionRegistry/maximumCount``
    /// sessions and every one is in use (a caller is inside
    /// ``FeedSessionRegistry/withSession(for:_:)`` or a load of it runs). A service answers
    /// "busy" (HTTP 503) and the client retries later.
    case allSessionsInUse(maximumCount: Int)
    /// A new session was refused: its owner already holds
    /// ``FeedSessionRegistry/maximumSessionsPerOwner`` sessions. A service answers "too many
    /// sessions" (HTTP 429), or removes one of the owner's sessions first.
    case ownerQuotaExceeded(owner: String, maximum: Int)
    /// The registry was closed (``FeedSessionRegistry/closeAll()``).
    case closed
    /// The session store failed or refused a read or a write. On
    /// ``FeedSessionStoreError/versionConflict(expected:found:)`` another writer saved the
    /// session first: the registry dropped its copy (evicted with
    /// ``FeedSessionEviction/Reason/storeConflict``), and the next use restores the saved one.
    case store(FeedSessionStoreError)

    /// A readable description, for logs.
    public var description: String {
        switch self {
        case .nonPositiveIdleTimeout(let timeout): "the idle timeout must be positive, not \(timeout)"
        case .invalidMaximumCount(let count): "the maximum session count must be at least 1, not \(count)"
        case .invalidMaximumSessionsPerOwner(let count):
            "the maximum session count per owner must be at least 1, not \(count)"
        case .allSessionsInUse(let maximum): "all \(maximum) sessions are in use"
        case .ownerQuotaExceeded(let owner, let maximum): "\(owner) already has \(maximum) sessions"
        case .closed: "the session registry is closed"
        case .store(let error): "\(error)"
        }
    }
}
