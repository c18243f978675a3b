/// How a failed load retries by itself, on the controller's clock.
///
/// The delay before retry *n* (n = 1 for the first retry) is
/// `min(initialBackoff × multiplierⁿ⁻¹, maximumBackoff)`, then shortened by a random fraction of
/// at most `jitter` of itself, so that many clients do not retry in step. With `jitter` 0 the
/// delays are exact, which is what a test with a `TestClock`-style clock wants.
public struct RetryPolicy: Sendable, Hashable {
    /// The most tries of one load, the first one included. 1 means no automatic retry.
    public var maximumAttempts: Int
    /// The delay before the first retry.
    public var initialBackoff: Duration
    /// The factor each later delay grows by.
    public var multiplier: Double
    /// The longest delay between two tries.
    public var maximumBackoff: Duration
    /// The largest fraction, from 0 to 1, by which a delay is randomly shortened.
    public var jitter: Double

    /// Creates a retry policy. ``FeedConfiguration/init(pageSize:loadsInitialPage:loadMoreDuringRefresh:refreshDuringRefresh:loadMoreDuringLoadMore:retry:timeout:duplicates:)``
    /// checks the values and throws a ``FeedConfigurationError`` for bad ones.
    public init(
        maximumAttempts: Int,
        initialBackoff: Duration = .seconds(1),
        multiplier: Double = 2,
        maximumBackoff: Duration = .seconds(30),
        jitter: Double = 0
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialBackoff = initialBackoff
        self.multiplier = multiplier
        self.maximumBackoff = maximumBackoff
        self.jitter = jitter
    }

    /// No automatic retry: a failure stays until ``FeedController/retry()`` or a new request.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// The delay before retry number `retryNumber` (1 for the first retry).
    ///
    /// Never traps: a `retryNumber` below 1 is taken as 1, a `randomUnit` outside `0..<1` is
    /// clamped into it (NaN counts as 0), and a delay beyond about 100 years is shortened to
    /// that, so that no clock's arithmetic overflows.
    /// - Parameters:
    ///   - retryNumber: Which retry the delay comes before: 1 for the first.
    ///   - randomUnit: a value in `0..<1` that picks the jitter; 0 gives the full delay.
    public func backoff(beforeRetry retryNumber: Int, randomUnit: Double = 0) -> Duration {
        let initial = initialBackoff.secondsValue
        let maximum = min(maximumBackoff.secondsValue, Duration.longestTimerDelay.secondsValue)
        var seconds = min(initial, maximum)
        var step = 1
        while step < retryNumber && seconds < maximum {
            seconds *= multiplier
            step += 1
        }
        seconds = min(seconds, maximum) // also catches a product that overflowed to infinity
        let unit = randomUnit.isNaN ? 0 : min(max(randomUnit, 0), 1)
        let jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        seconds -= seconds * jitter * unit
        return .saturating(seconds: seconds)
    }

    func validate() throws(FeedConfigurationError) {
        guard maximumAttempts >= 1 else { throw .invalidRetryAttempts(maximumAttempts) }
        guard initialBackoff >= .zero else { throw .negativeBackoff(initialBackoff) }
        guard maximumBackoff >= initialBackoff else {
            throw .maximumBackoffBelowInitial(initial: initialBackoff, maximum: maximumBackoff)
        }
        guard multiplier.isFinite, multiplier >= 1 else { throw .invalidBackoffMultiplier(multiplier) }
        guard jitter.isFinite, (0...1).contains(jitter) else { throw .invalidJitter(jitter) }
    }
}

extension Duration {
    /// The longest delay the controller sleeps for at once: about 100 years. A longer timeout or
    /// backoff (say `.seconds(Int64.max)`, meaning "for ever") is shortened to it, because adding
    /// it to a clock's `now` would overflow the clock's arithmetic and trap.
    @usableFromInline static let longestTimerDelay: Duration = .seconds(100 * 365 * 24 * 3_600)

    /// `self`, shortened to ``longestTimerDelay``.
    @inlinable var boundedForTimers: Duration { min(self, .longestTimerDelay) }

    /// The duration in seconds, as a `Double`.
    @usableFromInline var secondsValue: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// `seconds` as a duration, clamped to `0...longestTimerDelay` (NaN gives zero).
    @usableFromInline static func saturating(seconds: Double) -> Duration {
        guard seconds > 0 else { return .zero } // also NaN
        let bounded = min(seconds, Duration.longestTimerDelay.secondsValue)
        let whole = bounded.rounded(.down)
        let attoseconds = Int64(((bounded - whole) * 1e18).rounded())
        return Duration(secondsComponent: Int64(whole), attosecondsComponent: attoseconds)
    }
}
