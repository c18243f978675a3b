/// Which errors a failed load retries automatically; part of a ``RetryPolicy``.
///
/// A condition is a named predicate over the error a try failed with. Two conditions are equal
/// when their names are, so a ``FeedConfiguration`` stays `Hashable`: give every custom
/// condition a name of its own.
///
/// ```swift
/// let retry = RetryPolicy(maximumAttempts: 4, condition: .custom("offline only") { $0 is OfflineError })
/// ```
public struct RetryCondition: Sendable, Hashable, CustomStringConvertible {
    /// The condition's name; conditions with the same name are equal.
    public let name: String
    @usableFromInline let predicate: @Sendable (any Error) -> Bool

    /// Creates a condition named `name` that retries when `predicate` returns `true`.
    public init(_ name: String, _ predicate: @escaping @Sendable (any Error) -> Bool) {
        self.name = name
        self.predicate = predicate
    }

    /// Whether a try that failed with `error` should be retried.
    @inlinable public func shouldRetry(_ error: any Error) -> Bool {
        predicate(error)
    }

    /// Retries what may pass on a second try: an error conforming to ``PageSourceError`` when
    /// it says ``PageSourceError/isRetryable`` (transport errors, 408, 429 and 5xx for
    /// `AsyncPagingHTTP`'s errors; never another 4xx or a page that cannot be decoded), a
    /// ``FeedError/timedOut(after:)``, and every error of another type.
    public static let `default` = RetryCondition("default") { error in
        switch error {
        case let error as any PageSourceError: error.isRetryable
        case let error as FeedError:
            if case .timedOut = error { true } else { false }
        default: true
        }
    }

    /// Retries every error.
    public static let always = RetryCondition("always") { _ in true }

    /// Retries no error: a failure ends the load at once, whatever ``RetryPolicy/maximumAttempts``.
    public static let never = RetryCondition("never") { _ in false }

    /// A condition of your own, named `name`; see ``init(_:_:)``.
    public static func custom(_ name: String, _ predicate: @escaping @Sendable (any Error) -> Bool) -> RetryCondition {
        RetryCondition(name, predicate)
    }

    /// Whether the two conditions have the same name.
    public static func == (lhs: RetryCondition, rhs: RetryCondition) -> Bool { lhs.name == rhs.name }

    /// Hashes the name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The condition's name.
    public var description: String { name }
}
