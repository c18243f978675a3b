import AsyncPaging
import Synchronization

/// A pretend backend: a finite, newest-first feed of posts with latency and failures.
///
/// - Items follow from the seed: the same flags give the same posts on every run.
/// - Latency is real time on the controller's clock (`request.clock`), around ``Settings/latency``.
/// - The feed has ``Settings/totalItems`` posts, so the end of the data shows; pages carry a
///   `previous` cursor too, so a feed opened at a post in the middle (`--open-at`) loads both ways.
/// - Every refresh opens a new edition with ``Settings/newPostsPerRefresh`` newer posts on top.
/// - A request fails with probability ``Settings/failureRate``, decided from the seed, the page
///   and the attempt, so a retry of a failed page can succeed.
/// - ``inject(_:on:)`` makes the next request of a side fail or hang until it is cancelled:
///   the script and the `f` key use it to show failures and overlaps on demand.
final class SimulatedFeedAPI: PageSource, Sendable {
    typealias Item = FeedItem
    typealias Cursor = FeedCursor

    struct Settings: Sendable, Hashable {
        var seed: UInt64 = 42
        var totalItems = 100
        var latency: Duration = .milliseconds(700)
        var failureRate = 0.0
        var newPostsPerRefresh = 3
    }

    /// What an injected fault does to the request it hits.
    enum Fault: Sendable, Hashable {
        /// The request waits out its latency, then fails with ``SimulatedAPIError/injected``.
        case fail
        /// The request never answers; only cancellation ends it.
        case stall
    }

    /// What the API has seen so far.
    struct Stats: Sendable, Hashable, CustomStringConvertible {
        var requests = 0
        var succeeded = 0
        var failed = 0
        var cancelled = 0
        var inFlight: Int { requests - succeeded - failed - cancelled }

        var description: String {
            "\(requests) requests: \(succeeded) ok, \(failed) failed, \(cancelled) cancelled"
        }
    }

    private struct State {
        var edition = 0
        var faults: [(side: FeedSide?, fault: Fault)] = []
        var stats = Stats()
        /// Tasks waiting in ``waitUntilIdle()`` for the requests in flight to end.
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    let settings: Settings
    private let state = Mutex(State())

    init(settings: Settings) {
        self.settings = settings
    }

    /// Makes the next request for `side` (any side when `nil`) fail or stall.
    func inject(_ fault: Fault, on side: FeedSide? = nil) {
        state.withLock { $0.faults.append((side, fault)) }
    }

    /// The faults injected and not used yet.
    var pendingFaults: Int { state.withLock { $0.faults.count } }

    /// The requests seen so far.
    var stats: Stats { state.withLock { $0.stats } }

    /// Returns once no request is in flight: a cancelled request counts itself when its task
    /// notices the cancellation, which may be a moment after the engine moved on.
    func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                if state.stats.inFlight == 0 { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    /// Counts a request's end, then wakes the idle waiters if it was the last one in flight:
    /// decided under the lock, resumed after it is released.
    private func finishRequest(_ count: (inout Stats) -> Void) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            count(&state.stats)
            guard state.stats.inFlight == 0 else { return [] }
            defer { state.idleWaiters = [] }
            return state.idleWaiters
        }
        waiters.forEach { $0.resume() }
    }

    /// The edition the latest refresh opened (0 before the first page).
    var currentEdition: Int { state.withLock { $0.edition } }

    func page(for request: PageRequest<FeedCursor>) async throws -> Page<FeedItem, FeedCursor> {
        let (cursor, fault) = state.withLock { state -> (FeedCursor, Fault?) in
            state.stats.requests += 1
            let cursor: FeedCursor
            if let requested = request.cursor {
                cursor = requested
            } else {
                state.edition += 1
                cursor = FeedCursor(edition: state.edition, offset: 0)
            }
            var fault: Fault?
            if let index = state.faults.firstIndex(where: { $0.side == nil || $0.side == request.side }) {
                fault = state.faults.remove(at: index).fault
            }
            return (cursor, fault)
        }
        var random = SeededRandom(
            mixing: settings.seed, UInt64(cursor.edition), UInt64(bitPattern: Int64(cursor.offset)), UInt64(request.attempt),
            request.side == .refresh ? 1 : 2)
        let latency = fault == .stall ? Duration.seconds(3_600) : settings.latency * (0.6 + 0.8 * random.nextUnit())
        do {
            if latency > .zero {
                try await request.clock.sleep(for: latency)
            }
            try Task.checkCancellation()
        } catch {
            finishRequest { $0.cancelled += 1 }
            throw error
        }
        if fault == .fail || random.nextUnit() < settings.failureRate {
            finishRequest { $0.failed += 1 }
            throw fault == .fail ? SimulatedAPIError.injected : SimulatedAPIError.serviceUnavailable
        }
        finishRequest { $0.succeeded += 1 }
        return makePage(at: cursor, size: request.pageSize)
    }

    /// The page of `size` posts that starts at `cursor`; pure, for the script's checks too.
    ///
    /// Its `previous` is the page of `size` posts that ends where this one starts, `nil` at
    /// the newest post: a feed opened in the middle (``FeedController/refresh(from:)``) loads
    /// newer posts above. That cursor's offset may be negative: the page then starts at the
    /// newest post and is shorter, so the pages above never overlap.
    func makePage(at cursor: FeedCursor, size: Int) -> Page<FeedItem, FeedCursor> {
        let newest = newestPost(inEdition: cursor.edition)
        let start = max(cursor.offset, 0)
        let end = min(max(cursor.offset + size, 0), settings.totalItems)
        let items = (min(start, end)..<end).map { FeedItem(id: newest - $0, position: $0, seed: settings.seed) }
        let previous = start > 0 ? FeedCursor(edition: cursor.edition, offset: start - size) : nil
        let next = end < settings.totalItems ? FeedCursor(edition: cursor.edition, offset: end) : nil
        return Page(items: items, previous: previous, next: next)
    }

    /// The number of the newest post of an edition: each refresh brings a few newer posts.
    func newestPost(inEdition edition: Int) -> Int {
        settings.totalItems + settings.newPostsPerRefresh * max(edition - 1, 0)
    }
}
