/// Why a ``FeedSessionStore`` refused or failed a read or a write.
public enum FeedSessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The write was made on `expected` (`nil`: on no saved session) but the saved version is
    /// `found` (`nil`: nothing is saved): another writer saved first. Nothing was written.
    ///
    /// The losing writer's list is out of date: it should load the saved session again (and,
    /// if it still wants to, redo its request on that list) rather than write over it.
    /// ``FeedSessionRegistry`` closes its copy of the session, so the next use restores it.
    case versionConflict(expected: FeedSessionVersion?, found: FeedSessionVersion?)
    /// The record cannot be applied to the saved list (a page record on a session with no
    /// saved list, a page after the end of the data, a repeated cursor, more pages dropped
    /// than saved), or the saved data does not make a list. The message says which.
    case invalidRecord(String)
    /// The store could not be read or written (an I/O error, a lost connection, a
    /// serialization failure). The message is for logs; whether the write happened is
    /// unknown, so read the session again before writing on it.
    case unavailable(String)

    /// A readable description, for logs.
    public var description: String {
        switch self {
        case .versionConflict(let expected, let found):
            "version conflict: written on \(expected.map(String.init(describing:)) ?? "no saved session"), "
                + "saved is \(found.map(String.init(describing:)) ?? "nothing")"
        case .invalidRecord(let message): "invalid record: \(message)"
        case .unavailable(let message): "session store unavailable: \(message)"
        }
    }
}
