import AsyncPaging

/// A clock whose sleeps return at once, moving ``now`` to their deadline: for tests that do
/// not care about time but want it to read consistently.
///
/// A sleep still throws `CancellationError` in a cancelled task.
public final class ImmediateClock: Clock, Sendable {
    /// A point in time: a duration since the clock's start.
    public typealias Instant = TestClock.Instant

    private let current: Locked<Instant>

    /// Creates a clock at `now` (by default the clock's start).
    public init(now: Instant = Instant(offset: .zero)) {
        current = Locked(now)
    }

    /// The current time: the latest deadline any sleep reached.
    public var now: Instant { current.withLock { $0 } }

    /// Zero.
    public var minimumResolution: Duration { .zero }

    /// Returns at once, moving ``now`` to `deadline` if it is later.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { now in
            if now < deadline { now = deadline }
        }
    }
}
