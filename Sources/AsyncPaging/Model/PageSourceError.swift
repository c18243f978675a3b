/// An error a ``PageSource`` throws that knows whether trying again can help, and when.
///
/// The default ``RetryCondition`` asks errors of this kind: a load retries automatically only
/// when ``isRetryable`` is `true` (and the ``RetryPolicy`` has attempts left), and a
/// ``retryAfter`` — say an HTTP `Retry-After` header — sets the delay before the retry in place
/// of the policy's backoff, shorter or longer (0 retries at once), capped by
/// ``RetryPolicy/maximumBackoff``. Errors of other types are retried as before.
///
/// ```swift
/// struct APIError: PageSourceError {
///     var status: Int
///     var retryAfter: Duration?
///     var isRetryable: Bool { status == 408 || status == 429 || status >= 500 }
/// }
/// ```
public protocol PageSourceError: Error {
    /// Whether the same request may succeed if tried again (a timeout, a 503), as opposed to
    /// an error that will repeat (a 404, a page that cannot be decoded).
    var isRetryable: Bool { get }
    /// How long the server asked to wait before the next try, if it said; `nil` by default
    /// (the policy's backoff applies). When set, it is the delay before the retry, capped by
    /// ``RetryPolicy/maximumBackoff``; zero or negative retries at once.
    var retryAfter: Duration? { get }
}

extension PageSourceError {
    /// No advice: the retry policy's own backoff applies.
    public var retryAfter: Duration? { nil }
}
