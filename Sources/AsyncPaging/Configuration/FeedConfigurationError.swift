/// A configuration value that cannot work, reported when the configuration is made.
public enum FeedConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The page size must be at least 1.
    case invalidPageSize(Int)
    /// The timeout must be greater than zero.
    case nonPositiveTimeout(Duration)
    /// A retry policy needs at least one attempt.
    case invalidRetryAttempts(Int)
    /// A backoff cannot be negative.
    case negativeBackoff(Duration)
    /// The maximum backoff cannot be below the initial backoff.
    case maximumBackoffBelowInitial(initial: Duration, maximum: Duration)
    /// The backoff multiplier must be a finite number of at least 1.
    case invalidBackoffMultiplier(Double)
    /// The jitter must be a fraction from 0 to 1.
    case invalidJitter(Double)
    /// The number of empty pages a load follows must be from 0 to
    /// ``FeedConfiguration/emptyPagesFollowedLimit``.
    case invalidEmptyPagesFollowed(Int)
    /// The most items kept must be at least 1 (or `nil`, no bound).
    case invalidMaximumItems(Int)

    /// What is wrong with the configuration, in words.
    public var description: String {
        switch self {
        case .invalidPageSize(let size):
            "page size must be at least 1, got \(size)"
        case .nonPositiveTimeout(let timeout):
            "timeout must be greater than zero, got \(timeout)"
        case .invalidRetryAttempts(let attempts):
            "retry policy needs at least 1 attempt, got \(attempts)"
        case .negativeBackoff(let backoff):
            "backoff cannot be negative, got \(backoff)"
        case .maximumBackoffBelowInitial(let initial, let maximum):
            "maximum backoff \(maximum) is below the initial backoff \(initial)"
        case .invalidBackoffMultiplier(let multiplier):
            "backoff multiplier must be a finite number of at least 1, got \(multiplier)"
        case .invalidJitter(let jitter):
            "jitter must be a fraction from 0 to 1, got \(jitter)"
        case .invalidEmptyPagesFollowed(let count):
            "empty pages followed must be from 0 to \(FeedConfiguration.emptyPagesFollowedLimit), got \(count)"
        case .invalidMaximumItems(let count):
            "the most items kept must be at least 1, got \(count)"
        }
    }
}
