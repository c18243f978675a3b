#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The system's real time: a `Clock` whose instants are the time since 1970-01-01 00:00 UTC
/// (`clock_gettime(CLOCK_REALTIME)`), the same in every process of every machine whose clock
/// is set.
///
/// It stamps exported states (``FeedState/savedAt``) and ages restored ones
/// (``RestorePolicy/ifOlderThan(_:clock:)``). Real time can jump (the user or NTP sets the
/// clock), so an age read on it can even be negative; a restore policy counts that as stale.
/// Sleeping runs on `ContinuousClock` for the time left until the deadline as read at the call.
public struct WallClock: Clock, EpochClock, Sendable {
    /// A point in real time: the time since 1970-01-01 00:00 UTC.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since 1970-01-01 00:00 UTC.
        public var timeSinceEpoch: Duration

        /// Creates the instant `timeSinceEpoch` after 1970-01-01 00:00 UTC.
        public init(timeSinceEpoch: Duration) { self.timeSinceEpoch = timeSinceEpoch }

        /// The instant `duration` after this one, saturated at the ends of `Duration`'s range.
        public func advanced(by duration: Duration) -> Instant {
            Instant(timeSinceEpoch: timeSinceEpoch.saturatingAdding(duration))
        }
        /// The time from this instant to `other`, saturated at the ends of `Duration`'s range.
        public func duration(to other: Instant) -> Duration { other.timeSinceEpoch.saturatingSubtracting(timeSinceEpoch) }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.timeSinceEpoch < rhs.timeSinceEpoch }
        /// The time since the epoch, as `epoch+1795478400.0 seconds`.
        public var description: String { "epoch+\(timeSinceEpoch)" }
    }

    /// Creates the wall clock (it has no state: every instance reads the same time).
    public init() {}

    /// The current real time.
    public var now: Instant { Instant(timeSinceEpoch: Self.readRealTime()) }

    /// The current real time as a duration since 1970-01-01 00:00 UTC.
    public var timeSinceEpoch: Duration { Self.readRealTime() }

    /// One nanosecond, the unit of `clock_gettime`.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends for the time left until `deadline`, read now, on `ContinuousClock`; throws
    /// `CancellationError` when the task is cancelled. Never traps: a wait longer than about
    /// 100 years (and a tolerance longer than that) is shortened to it, a negative tolerance
    /// counts as none.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let remaining = now.duration(to: deadline)
        guard remaining > .zero else {
            try Task.checkCancellation()
            return
        }
        let tolerance = tolerance.map { Swift.max($0, .zero).boundedForTimers }
        try await ContinuousClock().sleep(for: remaining.boundedForTimers, tolerance: tolerance)
    }

    static func readRealTime() -> Duration {
        var time = timespec()
        // CLOCK_REALTIME cannot fail with a valid pointer; should it, the epoch itself is read.
        guard clock_gettime(CLOCK_REALTIME, &time) == 0 else { return .zero }
        return Duration(secondsComponent: Int64(time.tv_sec), attosecondsComponent: Int64(time.tv_nsec) * 1_000_000_000)
    }
}
