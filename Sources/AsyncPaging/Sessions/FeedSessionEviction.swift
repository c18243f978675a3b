/// A session that left a ``FeedSessionRegistry``, and why. Its controller was closed before
/// the event was sent.
public struct FeedSessionEviction<Key: Hashable & Sendable>: Sendable, Hashable, CustomStringConvertible {
    /// Why a session left the registry.
    public enum Reason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// It was not used for ``FeedSessionRegistry/idleTimeout`` on the registry's clock.
        case idle
        /// A new session went beyond ``FeedSessionRegistry/maximumCount``; this one was the
        /// least recently used that was not in use.
        case overCapacity
        /// ``FeedSessionRegistry/remove(_:)`` removed it.
        case removed
        /// ``FeedSessionRegistry/closeAll()`` closed the registry.
        case registryClosed
        /// Another writer saved the session in the ``FeedSessionStore`` first (a version
        /// conflict): this copy is out of date. The next use restores the saved one.
        case storeConflict
        /// A save to the ``FeedSessionStore`` failed, so what is saved is unknown. The next use
        /// restores what the store has.
        case storeFailed

        /// A readable description, for logs.
        public var description: String { rawValue }
    }

    /// The session's key.
    public let key: Key
    /// Why it left.
    public let reason: Reason

    /// Creates an eviction event.
    public init(key: Key, reason: Reason) {
        self.key = key
        self.reason = reason
    }

    /// A readable description, for logs.
    public var description: String { "\(key) evicted (\(reason))" }
}
