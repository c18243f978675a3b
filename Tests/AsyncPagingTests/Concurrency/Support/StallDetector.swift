import AsyncPaging
import Foundation
import Testing

/// Turns a hang into a failure with a message: a plain thread (not a task, so it runs even when
/// every thread of the cooperative pool is blocked) watches a progress counter, and when the
/// counter has not moved for ``stallLimit`` it reports the phase the test was in.
///
/// ```swift
/// let detector = StallDetector(name: "stress")
/// let finished = await detector.watch {
///     detector.enter("round 1: callers")
///     await doWork { detector.progress() }
///     return true
/// }
/// ```
///
/// On a stall, the message goes to standard error at once, and ``watch(_:)`` returns `nil`
/// (abandoning the work, which may never end) after recording it with `Issue.record`. A real
/// deadlock can block every thread of the cooperative pool, so that no task — not even the test
/// itself — runs again: if the watched test has not ended ``exitGrace`` after the report, the
/// thread ends the process with `fatalError` and the same message, so CI shows what stalled
/// instead of hanging until its own time limit.
///
/// Details (``details``) are computed on the watcher thread after a stall: they must read only
/// the test's own counters, never anything the engine may hold locked.
final class StallDetector: Sendable {
    /// How long the counter may stay still before the test counts as stalled.
    let stallLimit: Duration
    /// How long, after a stall is reported, the test may take to end before the process exits.
    let exitGrace: Duration
    let name: String

    private struct State {
        var progress: UInt64 = 0
        var phase = "starting"
        var details: (@Sendable () -> String)?
        var stallMessage: String?
        var finished = false
        /// Resumes ``watch(_:)`` early, with `nil`, on a stall.
        var abandon: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    /// Wakes the watcher thread early when the watched work ends.
    private let wakeUp = NSCondition()

    /// - Parameters:
    ///   - stallLimit: no progress for this long is a stall (default 10 s, or
    ///     `ASYNCPAGING_STALL_SECONDS`).
    ///   - exitGrace: after a stall, how long the test may take to end before `fatalError`.
    init(name: String, stallLimit: Duration? = nil, exitGrace: Duration = .seconds(15)) {
        self.name = name
        let configured = ProcessInfo.processInfo.environment["ASYNCPAGING_STALL_SECONDS"].flatMap(Int64.init)
        self.stallLimit = stallLimit ?? .seconds(configured ?? 10)
        self.exitGrace = exitGrace
    }

    /// Counts one step of progress.
    func progress() {
        state.withLock { $0.progress &+= 1 }
    }

    /// Names the phase the test is in now (it appears in a stall's message); counts as progress.
    func enter(_ phase: String) {
        state.withLock {
            $0.phase = phase
            $0.progress &+= 1
        }
    }

    /// What to add to a stall's message, computed on the watcher thread; see the type's notes.
    func details(_ describe: @escaping @Sendable () -> String) {
        state.withLock { $0.details = describe }
    }

    /// The stall's message, if the watched work stalled.
    var stallMessage: String? { state.withLock { $0.stallMessage } }

    /// Runs `body` under watch. Returns its value, or `nil` when it stalled: then the stall is
    /// recorded as an issue (with `sourceLocation`) and `body` is abandoned where it hangs.
    func watch<Value: Sendable>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: @escaping @Sendable () async -> Value
    ) async -> Value? {
        let thread = Thread { [self] in watchLoop() }
        thread.name = "stall detector: \(name)"
        thread.start()
        let work = Task { await body() }
        let value = await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let once = ResumeOnce(continuation)
            let stalledAlready = state.withLock { state -> Bool in
                state.abandon = { once.resume(returning: nil) }
                return state.stallMessage != nil
            }
            if stalledAlready { once.resume(returning: nil) }
            Task {
                let value = await work.value
                once.resume(returning: value)
            }
        }
        state.withLock {
            $0.finished = true
            $0.abandon = nil
        }
        wakeWatcher()
        if let message = stallMessage {
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
        return value
    }

    /// Wakes the watcher thread, so that it sees the end at once rather than at its next tick.
    private func wakeWatcher() {
        wakeUp.lock()
        wakeUp.signal()
        wakeUp.unlock()
    }

    private func watchLoop() {
        let clock = ContinuousClock()
        var lastProgress = UInt64.max
        var lastChange = clock.now
        var stalledAt: ContinuousClock.Instant?
        while true {
            wakeUp.lock()
            _ = wakeUp.wait(until: Date(timeIntervalSinceNow: 0.1))
            wakeUp.unlock()
            let now = clock.now
            let (progress, finished, message) = state.withLock { ($0.progress, $0.finished, $0.stallMessage) }
            if finished { return }
            if let stalledAt, let message {
                if stalledAt.duration(to: now) > exitGrace {
                    fatalError("""
                        \(message)
                        The test did not end within \(exitGrace) after the stall was reported: the \
                        cooperative thread pool is blocked (a deadlock). Ending the process so the run \
                        reports it instead of hanging.
                        """)
                }
                continue
            }
            if progress != lastProgress {
                lastProgress = progress
                lastChange = now
                continue
            }
            guard lastChange.duration(to: now) > stallLimit else { continue }
            let (phase, details) = state.withLock { ($0.phase, $0.details) }
            var report = "STALL in \(name), phase \"\(phase)\": no progress for \(stallLimit) (progress count \(progress))"
            if let details { report += "\n" + details() }
            let abandon = state.withLock { state -> (@Sendable () -> Void)? in
                state.stallMessage = report
                return state.abandon
            }
            FileHandle.standardError.write(Data((report + "\n").utf8))
            stalledAt = now
            abandon?()
        }
    }
}

/// A continuation resumed at most once, by whichever side comes first.
final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: Locked<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Locked(continuation)
    }

    func resume(returning value: Value) {
        let taken = continuation.withLock { continuation in
            defer { continuation = nil }
            return continuation
        }
        taken?.resume(returning: value)
    }
}
