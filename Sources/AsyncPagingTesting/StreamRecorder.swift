import AsyncPaging

/// Collects the values of an `AsyncStream` for assertions, and lets a test wait for them.
///
/// The recorder starts reading as soon as it is made. Waiting suspends until the values
/// arrive (or the stream finishes); nothing polls. Every wait also ends when the waiting task
/// is cancelled, returning what it has so far.
///
/// ```swift
/// let events = StreamRecorder(feed.events)
/// await feed.refresh()
/// #expect(await events.waitForCount(2) == [.began(.refresh), .ended(.refresh, .completed)])
/// ```
public final class StreamRecorder<Element: Sendable>: Sendable {
    /// What a wait waits for: a condition on the values so far and whether the stream finished.
    private typealias Condition = @Sendable ([Element], Bool) -> Bool

    private struct State {
        var values: [Element] = []
        var isFinished = false
        var waits = PendingWaits<Condition, [Element]>()
    }

    private let state = Locked(State())
    private let reader: Locked<Task<Void, Never>?> = Locked(nil)

    /// Starts recording `stream`.
    public init(_ stream: AsyncStream<Element>) {
        let task = Task { [weak self] in
            for await value in stream {
                guard let self else { return }
                self.update { $0.values.append(value) }
            }
            self?.update { $0.isFinished = true }
        }
        reader.withLock { $0 = task }
    }

    deinit {
        reader.withLock { $0?.cancel() }
    }

    /// The values recorded so far.
    public var values: [Element] { state.withLock { $0.values } }

    /// The newest value recorded so far.
    public var last: Element? { state.withLock { $0.values.last } }

    /// Whether the stream has finished.
    public var isFinished: Bool { state.withLock { $0.isFinished } }

    /// Suspends until at least `count` values have arrived, or the stream finished, and
    /// returns all values so far.
    ///
    /// If the waiting task is cancelled first (also before the call), it returns the values so
    /// far at once, so a test that expects more values than come ends by its time limit
    /// (`.timeLimit`) instead of hanging the run. The same holds for every wait of the recorder.
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Element] {
        await wait { values, finished in values.count >= count || finished }
    }

    /// Suspends until a recorded value satisfies `predicate` (or the stream finished) and
    /// returns the first such value, or `nil` if the stream finished without one (or the
    /// waiting task was cancelled before one arrived).
    @discardableResult
    public func waitFor(_ predicate: @escaping @Sendable (Element) -> Bool) async -> Element? {
        let values = await wait { values, finished in finished || values.contains(where: predicate) }
        return values.first(where: predicate)
    }

    /// Suspends until the stream finishes and returns every value; if the waiting task is
    /// cancelled first, returns the values so far.
    @discardableResult
    public func waitForFinish() async -> [Element] {
        await wait { _, finished in finished }
    }

    /// The number of waits suspended now, for the test kit's own tests.
    package var pendingWaitCount: Int { state.withLock { $0.waits.count } }

    /// Stops reading; the stream's subscription ends.
    public func cancel() {
        reader.withLock { $0?.cancel() }
    }

    private func wait(until isSatisfied: @escaping Condition) async -> [Element] {
        await state.wait(
            in: \.waits, for: isSatisfied,
            satisfied: { isSatisfied($0.values, $0.isFinished) ? $0.values : nil },
            cancelled: { $0.values })
    }

    private func update(_ change: (inout State) -> Void) {
        let ready = state.withLock { state in
            change(&state)
            let (values, finished) = (state.values, state.isFinished)
            return state.waits.takeSatisfied { isSatisfied in isSatisfied(values, finished) ? values : nil }
        }
        for (continuation, values) in ready { continuation.resume(returning: values) }
    }
}
