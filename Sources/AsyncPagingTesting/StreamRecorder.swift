import AsyncPaging

/// Collects the values of an `AsyncStream` for assertions, and lets a test wait for them.
///
/// The recorder starts reading as soon as it is made. Waiting suspends until the values
/// arrive (or the stream finishes); nothing polls.
///
/// ```swift
/// let events = StreamRecorder(feed.events)
/// await feed.refresh()
/// #expect(await events.waitForCount(2) == [.began(.refresh), .ended(.refresh, .completed)])
/// ```
public final class StreamRecorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable ([Element], Bool) -> Bool
        let continuation: CheckedContinuation<[Element], Never>
    }

    private struct State {
        var values: [Element] = []
        var isFinished = false
        var waiters: [Waiter] = []
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
    @discardableResult
    public func waitForCount(_ count: Int) async -> [Element] {
        await wait { values, finished in values.count >= count || finished }
    }

    /// Suspends until a recorded value satisfies `predicate` (or the stream finished) and
    /// returns the first such value, or `nil` if the stream finished without one.
    @discardableResult
    public func waitFor(_ predicate: @escaping @Sendable (Element) -> Bool) async -> Element? {
        let values = await wait { values, finished in finished || values.contains(where: predicate) }
        return values.first(where: predicate)
    }

    /// Suspends until the stream finishes and returns every value.
    @discardableResult
    public func waitForFinish() async -> [Element] {
        await wait { _, finished in finished }
    }

    /// Stops reading; the stream's subscription ends.
    public func cancel() {
        reader.withLock { $0?.cancel() }
    }

    private func wait(until isSatisfied: @escaping @Sendable ([Element], Bool) -> Bool) async -> [Element] {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [Element]? in
                if isSatisfied(state.values, state.isFinished) { return state.values }
                state.waiters.append(Waiter(isSatisfied: isSatisfied, continuation: continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        let ready = state.withLock { state -> [(CheckedContinuation<[Element], Never>, [Element])] in
            change(&state)
            var ready: [(CheckedContinuation<[Element], Never>, [Element])] = []
            state.waiters.removeAll { waiter in
                guard waiter.isSatisfied(state.values, state.isFinished) else { return false }
                ready.append((waiter.continuation, state.values))
                return true
            }
            return ready
        }
        for (continuation, values) in ready { continuation.resume(returning: values) }
    }
}
