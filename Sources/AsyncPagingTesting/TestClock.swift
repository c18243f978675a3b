import AsyncPaging

/// A clock whose time moves only when a test says so.
///
/// Sleepers register when they call `sleep`; ``advance(by:)`` and ``advance(to:)`` wake the
/// due ones in deadline order (ties in the order they went to sleep), moving ``now`` to each
/// deadline. Nothing here yields or polls: ``waitForSleepers(_:)`` suspends until enough
/// sleepers have registered, so a test says "wait until the source sleeps, then move time"
/// and gets the same run every time, however busy the machine. A wait whose task is cancelled
/// returns `false` at once, so a wrong expectation fails by the test's time limit, not a hang.
///
/// ```swift
/// let clock = TestClock()
/// let feed = FeedController(source: source, clock: clock)
/// await clock.waitForSleepers(1)   // the initial load sleeps on its latency
/// clock.advance(by: .seconds(2))   // ...which is now over
/// ```
///
/// Waking is not running: a woken task runs later, on its own executor. Wait for what it does
/// (an outcome, an event, the next sleeper) before asserting on it.
///
/// No input traps. Time saturates: an instant or a duration that would pass the range of
/// `Duration` (about ±1.7 × 10²⁰ seconds) stops at its end, so `advance(by: .seconds(Int64.max))`
/// can be called any number of times, and a sleep of any length registers (one beyond the end
/// wakes at the end). ``advance(by:)`` with a negative duration changes nothing, as
/// ``advance(to:)`` with a deadline in the past.
public final class TestClock: Clock, Sendable {
    /// A point in time of a ``TestClock``: a duration since the clock's start.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates an instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` after this one, saturated at the ends of `Duration`'s range.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset.saturatingAdding(duration)) }
        /// The time from this instant to `other`, saturated at the ends of `Duration`'s range.
        public func duration(to other: Instant) -> Duration { other.offset.saturatingSubtracting(offset) }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
        /// The time since the clock's start, as `t+2.0 seconds`.
        public var description: String { "t+\(offset)" }
    }

    private enum Entry {
        /// `sleep` was called, but its continuation is not stored yet.
        case registering
        /// Cancelled before its continuation was stored: the sleep throws when it gets there.
        case cancelledWhileRegistering
        case sleeping(CheckedContinuation<Void, any Error>)
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        var entry: Entry
    }

    private struct State {
        var now: Instant
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        /// The ``waitForSleepers(_:)`` calls waiting, with the count each waits for.
        var countWaits = PendingWaits<Int, Bool>()

        var sleepingCount: Int {
            sleepers.count { if case .sleeping = $0.entry { true } else { false } }
        }

        /// Removes and returns the waits whose count has been reached.
        mutating func takeSatisfiedWaits() -> [(continuation: CheckedContinuation<Bool, Never>, value: Bool)] {
            let count = sleepingCount
            return countWaits.takeSatisfied { $0 <= count ? true : nil }
        }
    }

    private let state: Locked<State>

    /// Creates a clock at `now` (by default the clock's start).
    public init(now: Instant = Instant(offset: .zero)) {
        state = Locked(State(now: now))
    }

    /// The current time.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock moves exactly as told.
    public var minimumResolution: Duration { .zero }

    /// Suspends until the clock reaches `deadline`; returns at once for a deadline at or before
    /// ``now``. Throws `CancellationError` when the task is cancelled, also when the cancel
    /// came before the sleep registered.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            state.sleepers.append(Sleeper(id: state.nextID, deadline: deadline, entry: .registering))
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration { case sleeping([(continuation: CheckedContinuation<Bool, Never>, value: Bool)]), due, cancelled }
                let registration = state.withLock { state -> Registration in
                    guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return .cancelled }
                    if case .cancelledWhileRegistering = state.sleepers[index].entry {
                        state.sleepers.remove(at: index)
                        return .cancelled
                    }
                    if deadline <= state.now {
                        state.sleepers.remove(at: index)
                        return .due
                    }
                    state.sleepers[index].entry = .sleeping(continuation)
                    return .sleeping(state.takeSatisfiedWaits())
                }
                switch registration {
                case .sleeping(let waits): waits.forEach { $0.continuation.resume(returning: $0.value) }
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                switch state.sleepers[index].entry {
                case .registering:
                    state.sleepers[index].entry = .cancelledWhileRegistering
                    return nil
                case .cancelledWhileRegistering:
                    return nil
                case .sleeping(let continuation):
                    state.sleepers.remove(at: index)
                    return continuation
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper due by then.
    ///
    /// Time saturates at the end of `Duration`'s range instead of overflowing. A clock cannot go
    /// back: a negative `duration` changes nothing.
    public func advance(by duration: Duration) {
        guard duration > .zero else { return }
        advance(to: now.advanced(by: duration))
    }

    /// Moves time to `deadline`, waking the sleepers due by then in deadline order and moving
    /// ``now`` to each one's deadline before waking it. A deadline in the past changes nothing.
    public func advance(to deadline: Instant) {
        while let continuation = state.withLock({ state -> CheckedContinuation<Void, any Error>? in
            let due = state.sleepers.indices.filter {
                if case .sleeping = state.sleepers[$0].entry { state.sleepers[$0].deadline <= deadline } else { false }
            }
            guard let first = due.min(by: { state.sleepers[$0].deadline < state.sleepers[$1].deadline }) else {
                if state.now < deadline { state.now = deadline }
                return nil
            }
            let sleeper = state.sleepers.remove(at: first)
            if state.now < sleeper.deadline { state.now = sleeper.deadline }
            guard case .sleeping(let continuation) = sleeper.entry else { return nil }
            return continuation
        }) {
            continuation.resume()
        }
    }

    /// Advances to the earliest sleeper's deadline, again and again, until no sleeper is
    /// left. Sleepers that woken tasks register later are not waited for: wait for them with
    /// ``waitForSleepers(_:)`` and run again.
    public func run() {
        while let next = nextDeadline { advance(to: next) }
    }

    /// The number of tasks sleeping on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepingCount } }

    /// The deadlines of the tasks sleeping on this clock, earliest first.
    public var pendingDeadlines: [Instant] {
        state.withLock { state in
            state.sleepers.compactMap { sleeper -> Instant? in
                if case .sleeping = sleeper.entry { sleeper.deadline } else { nil }
            }.sorted()
        }
    }

    /// The earliest deadline of a sleeping task, if any.
    public var nextDeadline: Instant? { pendingDeadlines.first }

    /// The number of ``waitForSleepers(_:)`` calls waiting now, for the test kit's own tests.
    package var pendingWaitCount: Int { state.withLock { $0.countWaits.count } }

    /// Suspends until at least `count` tasks are sleeping on this clock, and returns `true`;
    /// returns at once if they already are. It never polls: the sleep that makes the count
    /// resumes it.
    ///
    /// If the waiting task is cancelled first (also before the call), it returns `false` at
    /// once, so a test that waits for a sleeper that never comes ends by its time limit
    /// (`.timeLimit`) instead of hanging the run.
    @discardableResult
    public func waitForSleepers(_ count: Int = 1) async -> Bool {
        await state.wait(
            in: \.countWaits, for: count,
            satisfied: { $0.sleepingCount >= count ? true : nil },
            cancelled: { _ in false })
    }
}

/// A test clock's readings as an ``EpochClock`` whose epoch is the clock's start: a test stamps
/// an exported state and ages a restored one by advancing the clock.
extension TestClock: EpochClock {
    /// ``now`` as the time since the clock's start.
    public var timeSinceEpoch: Duration { now.offset }
}
