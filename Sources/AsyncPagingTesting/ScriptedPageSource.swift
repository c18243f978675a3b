import AsyncPaging

/// A ``AsyncPaging/PageSource`` that answers from a script and records every request: the source for
/// deterministic tests of a feed.
///
/// Each request takes the next scripted ``Response`` in order (or asks the responder closure
/// given at init). A response may take time — it sleeps on the request's clock, so with a
/// ``TestClock`` the test decides when it arrives — and may ignore cancellation, to prove that
/// a late page is dropped.
///
/// A response is named after what the source does with the request: it answers with a page
/// (``Response/page(_:next:latency:ignoresCancellation:)``, with `previous:` too for a feed
/// that loads both ways, or ``Response/page(_:latency:ignoresCancellation:)`` for a `Page` you
/// have), throws (``Response/failure(_:latency:ignoresCancellation:)``) or never answers
/// (``Response/hang``). <doc:TestKitVocabulary> lists the whole kit.
///
/// ```swift
/// let source = ScriptedPageSource<Int, Int>()
/// source.enqueue(.page(Array(0..<15), next: 1, latency: .seconds(2)),
///                .failure(CancellationError()),
///                .page(Array(15..<30), next: nil))
/// ```
public final class ScriptedPageSource<Item: Sendable, Cursor: Hashable & Sendable>: PageSource, Sendable {
    /// One scripted answer.
    public struct Response: Sendable {
        enum Result: Sendable {
            case page(Page<Item, Cursor>)
            case failure(any Error)
            case hang
        }

        let result: Result
        /// How long the answer takes, on the request's clock. Zero or less answers at once; a
        /// latency beyond about 100 years sleeps that long instead, as the controller's own
        /// timers do, so that adding it to a clock's `now` (a `ContinuousClock`'s traps on an
        /// overflow) never traps.
        public var latency: Duration
        /// Whether the answer ignores cancellation: it waits out its latency and returns its
        /// page (or throws its error) even when its task was cancelled.
        public var ignoresCancellation: Bool

        /// Answers with a page of `items` whose next cursor is `next` (`nil`: the last page),
        /// after `latency`: a feed that pages forward only.
        public static func page(
            _ items: [Item], next: Cursor?, latency: Duration = .zero, ignoresCancellation: Bool = false
        ) -> Response {
            .page(Page(items: items, next: next), latency: latency, ignoresCancellation: ignoresCancellation)
        }

        /// Answers with a page of `items` that knows its neighbours both ways, after `latency`:
        /// `previous` asks for the page before it (`nil`: the start of the data), `next` for the
        /// page after it (`nil`: the end).
        public static func page(
            _ items: [Item], previous: Cursor?, next: Cursor?, latency: Duration = .zero,
            ignoresCancellation: Bool = false
        ) -> Response {
            .page(Page(items: items, previous: previous, next: next), latency: latency, ignoresCancellation: ignoresCancellation)
        }

        /// Answers with `page` after `latency`: for a page you already have, such as one a
        /// fake backend made.
        public static func page(
            _ page: Page<Item, Cursor>, latency: Duration = .zero, ignoresCancellation: Bool = false
        ) -> Response {
            Response(result: .page(page), latency: latency, ignoresCancellation: ignoresCancellation)
        }

        /// Answers with `items` and `next` after `latency`: the earlier name of
        /// ``page(_:next:latency:ignoresCancellation:)``.
        @available(*, deprecated, renamed: "page(_:next:latency:ignoresCancellation:)")
        public static func items(
            _ items: [Item], next: Cursor?, latency: Duration = .zero, ignoresCancellation: Bool = false
        ) -> Response {
            .page(items, next: next, latency: latency, ignoresCancellation: ignoresCancellation)
        }

        /// Throws `error` after `latency`.
        public static func failure(
            _ error: any Error, latency: Duration = .zero, ignoresCancellation: Bool = false
        ) -> Response {
            Response(result: .failure(error), latency: latency, ignoresCancellation: ignoresCancellation)
        }

        /// Never answers; throws `CancellationError` when cancelled. A hanging server.
        ///
        /// It sleeps on the request's clock (so a ``TestClock`` counts it as a sleeper). Use it
        /// with a ``TestClock`` or a real clock: on an ``ImmediateClock``, whose sleeps return
        /// at once, it keeps a core busy re-sleeping until it is cancelled.
        public static var hang: Response {
            Response(result: .hang, latency: .zero, ignoresCancellation: false)
        }
    }

    /// What the source throws when a request finds nothing scripted.
    public struct UnscriptedRequest: Error, CustomStringConvertible {
        /// The request that found nothing scripted.
        public let request: PageRequest<Cursor>
        /// Names the request that found nothing scripted.
        public var description: String { "no response scripted for \(request)" }
    }

    private struct State {
        var queue: [Response] = []
        var requests: [PageRequest<Cursor>] = []
        var completed = 0
        var requestWaits = PendingWaits<Int, Bool>()
        var completionWaits = PendingWaits<Int, Bool>()
    }

    private let state = Locked(State())
    private let responder: (@Sendable (PageRequest<Cursor>) -> Response?)?

    /// Creates a source that answers from its queue; see ``enqueue(_:)``.
    public init() {
        responder = nil
    }

    /// Creates a source that asks `responder` for every request the queue does not answer.
    public init(responder: @escaping @Sendable (PageRequest<Cursor>) -> Response?) {
        self.responder = responder
    }

    /// Adds responses to the end of the queue.
    public func enqueue(_ responses: Response...) {
        state.withLock { $0.queue.append(contentsOf: responses) }
    }

    /// Every request received so far, in order.
    public var requests: [PageRequest<Cursor>] { state.withLock { $0.requests } }

    /// The number of requests whose answer has been returned or thrown (cancelled ones too).
    public var completedCount: Int { state.withLock { $0.completed } }

    /// The number of waits suspended now, for the test kit's own tests.
    package var pendingWaitCount: Int { state.withLock { $0.requestWaits.count + $0.completionWaits.count } }

    /// Suspends until at least `count` requests have been received, and returns `true`.
    ///
    /// If the waiting task is cancelled first (also before the call), it returns `false` at
    /// once, so a test that waits for a request that never comes ends by its time limit
    /// (`.timeLimit`) instead of hanging the run.
    @discardableResult
    public func waitForRequests(_ count: Int) async -> Bool {
        await state.wait(
            in: \.requestWaits, for: count,
            satisfied: { $0.requests.count >= count ? true : nil },
            cancelled: { _ in false })
    }

    /// Suspends until at least `count` requests have returned or thrown their answer, and
    /// returns `true`; returns `false` at once if the waiting task is cancelled first.
    @discardableResult
    public func waitForCompletions(_ count: Int) async -> Bool {
        await state.wait(
            in: \.completionWaits, for: count,
            satisfied: { $0.completed >= count ? true : nil },
            cancelled: { _ in false })
    }

    /// Records `request`, then answers it with the next scripted response (after its latency,
    /// on the request's clock), or throws ``UnscriptedRequest`` when the script is empty.
    public func page(for request: PageRequest<Cursor>) async throws -> Page<Item, Cursor> {
        let (response, waits) = state.withLock { state in
            state.requests.append(request)
            let response = state.queue.isEmpty ? nil : state.queue.removeFirst()
            let count = state.requests.count
            return (response, state.requestWaits.takeSatisfied { $0 <= count ? true : nil })
        }
        waits.forEach { $0.continuation.resume(returning: $0.value) }
        defer { markCompleted() }
        guard let response = response ?? responder?(request) else { throw UnscriptedRequest(request: request) }
        if case .hang = response.result {
            try await Self.sleepForever(on: request.clock)
        }
        if response.latency > .zero {
            let latency = min(response.latency, .longestTimerDelay)
            if response.ignoresCancellation {
                let clock = request.clock
                // An unstructured task is not cancelled with ours: the latency runs out regardless.
                await Task { try? await clock.sleep(for: latency) }.value
            } else {
                try await request.clock.sleep(for: latency)
            }
        }
        if !response.ignoresCancellation { try Task.checkCancellation() }
        switch response.result {
        case .page(let page): return page
        case .failure(let error): throw error
        case .hang: throw CancellationError()
        }
    }

    private func markCompleted() {
        let waits = state.withLock { state in
            state.completed += 1
            let completed = state.completed
            return state.completionWaits.takeSatisfied { $0 <= completed ? true : nil }
        }
        waits.forEach { $0.continuation.resume(returning: $0.value) }
    }

    private static func sleepForever(on clock: any Clock<Duration>) async throws {
        while true { try await clock.sleep(for: .seconds(86_400 * 365)) }
    }
}
