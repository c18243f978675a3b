import AsyncPaging
import AsyncPagingTesting
import Testing

/// Issue 11, bug 3: no number that `FeedConfiguration` and `RetryPolicy` take traps or hangs —
/// when the configuration is made, when a backoff is computed, or when a timeout or a backoff
/// reaches a real clock.
@Suite("Fuzz: configuration numbers never trap", .serialized) // one fuzzing child at a time: each blocks a pool thread while it waits
struct ConfigurationFuzzTests {
    @Test("FeedConfiguration.init: any page size, timeout and retry values")
    func configuration() async {
        FuzzHarness.announce(ConfigurationFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(ConfigurationFuzz.self) }
        FuzzHarness.report(ConfigurationFuzz.self, result)
    }

    @Test("RetryPolicy.backoff: any policy, retry number and random unit")
    func backoff() async {
        FuzzHarness.announce(BackoffFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(BackoffFuzz.self) }
        FuzzHarness.report(BackoffFuzz.self, result)
    }

    @Test("timeouts and backoffs of any accepted size reach the real clock")
    func timersOnTheRealClock() async {
        FuzzHarness.announce(RealClockTimerFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(RealClockTimerFuzz.self) }
        FuzzHarness.report(RealClockTimerFuzz.self, result)
    }
}

/// About 100 years: the longest delay the controller sleeps for (see `RetryPolicy.backoff`).
let longestTimerDelay = Duration.seconds(100 * 365 * 24 * 3_600)

/// The failure of a fuzzed source.
struct FuzzFailure: Error {}

/// `duration` without its sign.
func positive(_ duration: Duration) -> Duration {
    guard duration < .zero else { return duration }
    return duration == Duration(attoseconds: .min) ? Duration(attoseconds: .max) : .zero - duration
}

extension FuzzRandom {
    mutating func retryPolicy() -> RetryPolicy {
        RetryPolicy(
            maximumAttempts: integer(), initialBackoff: duration(), multiplier: double(),
            maximumBackoff: duration(), jitter: double())
    }

    /// A policy that `FeedConfiguration` accepts, with extreme values: the delays a
    /// controller would really sleep for.
    mutating func acceptedRetryPolicy() -> RetryPolicy {
        let initial = positive(duration())
        let maximum = max(initial, positive(duration()))
        let multiplier = [1, 2, 1e300, .greatestFiniteMagnitude][Int(next() % 4)]
        return RetryPolicy(maximumAttempts: 2, initialBackoff: initial, multiplier: multiplier,
                           maximumBackoff: maximum, jitter: [0, 0.5, 1][Int(next() % 3)])
    }
}

enum ConfigurationFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var pageSize: Int
        var timeout: Duration?
        var retry: RetryPolicy
        var description: String { "FeedConfiguration(pageSize: \(pageSize), retry: \(retry), timeout: \(String(describing: timeout)))" }
    }

    static let name = "FeedConfiguration"
    static let defaultInputCount = 20_000

    static func input(_ random: inout FuzzRandom) -> Input {
        Input(pageSize: random.integer(), timeout: random.bool() ? random.duration() : nil, retry: random.retryPolicy())
    }

    static func violation(_ input: Input) async -> String? {
        guard let configuration = try? FeedConfiguration(pageSize: input.pageSize, retry: input.retry, timeout: input.timeout)
        else { return nil } // rejected with a typed error: fine
        if configuration.pageSize < 1 { return "accepted page size \(configuration.pageSize)" }
        if let timeout = configuration.timeout, timeout <= .zero { return "accepted timeout \(timeout)" }
        return nil
    }
}

enum BackoffFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var policy: RetryPolicy
        var retryNumber: Int
        var randomUnit: Double
        var description: String { "\(policy).backoff(beforeRetry: \(retryNumber), randomUnit: \(randomUnit))" }
    }

    static let name = "RetryPolicy"
    static let defaultInputCount = 20_000

    static func input(_ random: inout FuzzRandom) -> Input {
        let policy = random.bool() ? random.retryPolicy() : random.acceptedRetryPolicy()
        return Input(policy: policy, retryNumber: random.integer(), randomUnit: random.double())
    }

    static func violation(_ input: Input) async -> String? {
        let delay = input.policy.backoff(beforeRetry: input.retryNumber, randomUnit: input.randomUnit)
        guard delay >= .zero, delay <= longestTimerDelay else { return "backoff \(delay)" }
        // Computed in floating point: a few attoseconds over the maximum are rounding, not a bug.
        if (try? FeedConfiguration(retry: input.policy)) != nil, delay > input.policy.maximumBackoff + .nanoseconds(1) {
            return "backoff \(delay) above the maximum \(input.policy.maximumBackoff)"
        }
        return nil
    }
}

/// Controllers on the real clock with accepted configurations of extreme timeouts and
/// backoffs: the timer sleeps on `ContinuousClock` (whose instant arithmetic traps on an
/// overflow) and is cancelled when the load ends or the controller closes.
enum RealClockTimerFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var timeout: Duration?
        var retry: RetryPolicy
        var description: String { "timeout \(String(describing: timeout)), retry \(retry)" }
    }

    static let name = "RealClockTimers"
    static let defaultInputCount = 150

    static func input(_ random: inout FuzzRandom) -> Input {
        let timeout = positive(random.duration())
        return Input(timeout: timeout > .zero ? timeout : nil, retry: random.acceptedRetryPolicy())
    }

    static func violation(_ input: Input) async -> String? {
        guard let configuration = try? FeedConfiguration(
            loadsInitialPage: false, retry: input.retry, timeout: input.timeout)
        else { return nil }
        let source = ScriptedPageSource<Int, Int>()
        // A failure that answers after 1 ms: the timeout's timer is asleep by then, and the
        // failure schedules the backoff's.
        source.enqueue(.failure(FuzzFailure(), latency: .milliseconds(1)))
        let feed = FeedController<Int, Int>(source: source, clock: ContinuousClock(), configuration: configuration)
        let diagnostics = StreamRecorder(feed.diagnostics)
        feed.send(.refresh)
        let scheduled = await diagnostics.waitFor { if case .retryScheduled = $0 { true } else { false } }
        guard case .retryScheduled(_, _, let delay, _) = scheduled else { return "no retry scheduled" }
        try? await ContinuousClock().sleep(for: .milliseconds(1)) // the backoff's timer is asleep
        await feed.close()
        return delay <= longestTimerDelay ? nil : "backoff \(delay)"
    }
}
