/// How a failed load retries by itself, on the controller's clock.
///
/// The delay before retry *n* (n = 1 for the first retry) is
/// `min(initialBackoff × multiplierⁿ⁻¹, maximumBackoff)`, then shortened by a random fraction of
/// at most `jitter` of itself, so that many clients do not retry in step. With `jitter` 0 the
/// delays are exact, which is what a test with a `TestClock`-style clock wants.
///
/// A server's advice replaces that delay: when the failed try threw a ``PageSourceError``
/// whose ``PageSourceError/retryAfter`` is set (an HTTP `Retry-After` header), the retry waits
/// exactly that long — shorter or longer than the backoff, without jitter — capped by
/// ``maximumBackoff``. `Retry-After: 0` (or a date in the past) retries at once; a negative
/// duration counts as 0; a huge one waits ``maximumBackoff``. See
/// ``delay(beforeRetry:after:randomUnit:)``.
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
    /// Which errors are retried; by default what may pass on a second try (see
    /// ``RetryCondition/default``).
    public var condition: RetryCondition

    /// Creates a retry policy. ``FeedConfiguration``'s initializer
    /// checks the values and throws a ``FeedConfigurationError`` for bad ones.
    public init(
        maximumAttempts: Int,
        initialBackoff: Duration = .seconds(1),
        multiplier: Double = 2,
        maximumBackoff: Duration = .seconds(30),
        jitter: Double = 0,
        condition: RetryCondition = .default
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialBackoff = initialBackoff
        self.multiplier = multiplier
        self.maximumBackoff = maximumBackoff
        self.jitter = jitter
        self.condition = condition
    }

    /// No automatic retry: a failure stays until ``FeedController/retry(_:)`` or a new request.
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
        let initial = max(initialBackoff.secondsValue, 0)
        let maximum = min(max(maximumBackoff.secondsValue, 0), Duration.longestTimerDelay.secondsValue)
        // initial × multiplier^(retryNumber − 1), by squaring: O(log n) steps for any retry
        // number, stopping once the factor alone passes the cap (a linear loop never ended
        // for a huge retry number with a multiplier of 1).
        var factor = 1.0
        var base = multiplier.isFinite ? max(multiplier, 1) : 1
        var exponent = max(retryNumber, 1) - 1
        let limit = initial > 0 ? maximum / initial : 1
        while exponent > 0 && factor <= limit {
            if exponent & 1 == 1 { factor *= base }
            base *= base
            exponent >>= 1
        }
        var seconds = initial == 0 ? 0 : min(initial * factor, maximum) // also catches infinity
        let unit = randomUnit.isNaN ? 0 : min(max(randomUnit, 0), 1)
        let jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0
        seconds -= seconds * jitter * unit
        return .saturating(seconds: seconds)
    }

    /// The delay before retry number `retryNumber` after a try failed with `error`.
    ///
    /// When `error` is a ``PageSourceError`` whose ``PageSourceError/retryAfter`` is set, the
    /// server's delay: exactly that, shorter or longer than the backoff (0 retries at once; a
    /// negative one counts as 0), capped by ``maximumBackoff`` (and by about 100 years), with no
    /// jitter. Otherwise the ``backoff(beforeRetry:randomUnit:)``. Never traps.
    /// - Parameters:
    ///   - retryNumber: Which retry the delay comes before: 1 for the first.
    ///   - error: The error the failed try threw.
    ///   - randomUnit: a value in `0..<1` that picks the jitter; 0 gives the full delay.
    public func delay(beforeRetry retryNumber: Int, after error: any Error, randomUnit: Double = 0) -> Duration {
        guard let asked = (error as? any PageSourceError)?.retryAfter else {
            return backoff(beforeRetry: retryNumber, randomUnit: randomUnit)
        }
        let cap = max(maximumBackoff, .zero).boundedForTimers
        return min(max(asked, .zero), cap)
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
    @usableFromInline package static let longestTimerDelay: Duration = .seconds(100 * 365 * 24 * 3_600)

    /// `self`, shortened to ``longestTimerDelay``.
    @inlinable var boundedForTimers: Duration { min(self, .longestTimerDelay) }

    /// The duration in seconds, as a `Double`. Division, not `components`, which traps for a
    /// duration beyond `Int64.max` seconds.
    @usableFromInline var secondsValue: Double {
        self / .seconds(1)
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
