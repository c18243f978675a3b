#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import AsyncPaging
import AsyncPagingHTTP

/// Loads cancelled by the hundred thousand over `URLSessionTransport` against loopback servers,
/// at every point of a request's life, including the instant its response completes. On Linux
/// this killed the process inside `URLSessionTask.cancel()` ("Trying to access a behaviour for a
/// task that in not in the registry", FoundationNetworking's TaskRegistry) within a second;
/// `URLSessionTransport` no longer cancels data tasks there.
///
/// Two servers: ``LoopbackHTTPServer``, in this process, answers fast enough for 100,000
/// cancelled loads within a minute, but most cancellations then land before the request leaves
/// or after its answer came; the Python fixture server answers slowly enough that most land
/// while the request is in flight — the race that trapped. With the cancelling transport
/// restored, the race over the Python server crashed the process in 2 of 2 runs within a
/// second; the 100,000 over ``LoopbackHTTPServer`` did not (0 of 3 runs).
@Suite("Transport cancellation")
struct TransportCancellationTests {
    /// How many page loads the race over ``LoopbackHTTPServer`` must see cancelled:
    /// `ASYNCPAGING_CANCELLED_LOADS`, 100,000 by default (the sanitizer's run in .ci/run asks
    /// for 3,000, scripts/soak.sh for a million). What bounds the rate is FoundationNetworking
    /// itself, about 0.3 ms of CPU per request (Benchmarks/README, "Cancelled loads per
    /// transport").
    static var cancelledLoadsWanted: Int {
        ProcessInfo.processInfo.environment["ASYNCPAGING_CANCELLED_LOADS"].flatMap { Int($0) } ?? 100_000
    }

    /// How many page loads the race over the Python fixture server must see cancelled:
    /// `ASYNCPAGING_IN_FLIGHT_CANCELLED_LOADS`, 15,000 by default (it answers about 2,000
    /// requests a second on a shared two-core machine, and nearly every load it sees cancelled
    /// costs a request).
    static var inFlightCancelledLoadsWanted: Int {
        ProcessInfo.processInfo.environment["ASYNCPAGING_IN_FLIGHT_CANCELLED_LOADS"].flatMap { Int($0) } ?? 15_000
    }

    /// How many load-mores the engine test must see preempted by a refresh:
    /// `ASYNCPAGING_PREEMPTED_LOADS`, 150 by default (a preempted load-more takes four to six
    /// cycles of a load-more and a refresh; 256 took 82 s beside the rest of the suite on a
    /// machine loaded by other builds).
    static var preemptedLoadsWanted: Int {
        ProcessInfo.processInfo.environment["ASYNCPAGING_PREEMPTED_LOADS"].flatMap { Int($0) } ?? 150
    }

    /// Tasks racing at once.
    static let workerCount = 8
    /// Page loads started together in one round of the race test.
    static let batchSize = 8
    /// The most yields before a batch is cancelled; at the most, it is cancelled when its first
    /// load ends.
    static let maximumHeadStart = 40

    /// A transport for each racing task over ``LoopbackHTTPServer``: one `URLSession` shared by
    /// tasks whose concurrent requests go beyond the connections libcurl keeps open for it
    /// closes and opens connections all the time (1,598 connections for 20,000 requests of 8
    /// tasks over one session, against 8 with a session each). Cookies and the cache are off.
    static func transport() -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        return URLSessionTransport(session: URLSession(configuration: configuration))
    }

    static func source(_ url: URL, transport: URLSessionTransport) -> HTTPPageSource<FixtureItem, String> {
        .cursorInBody(url: url, body: CursorBody.self, items: \.data, next: \.next_cursor, transport: transport)
    }

    static func source(_ server: FixtureServer, key: String) -> HTTPPageSource<FixtureItem, String> {
        source(server.url("/cursor?key=\(key)"), transport: server.transport)
    }

    @Test("page loads cancelled by the hundred thousand, over a loopback server in this process: no crash, each ends once")
    func loadsCancelledAsResponsesComplete() async throws {
        let server = try LoopbackHTTPServer.start()
        defer { server.stop() }
        let transports = (0..<Self.workerCount).map { _ in Self.transport() }
        defer { for transport in transports { transport.session.finishTasksAndInvalidate() } }
        try await Self.race(
            wanted: Self.cancelledLoadsWanted, server: "the loopback server",
            source: { worker in Self.source(server.url("/cursor?key=race-\(worker)"), transport: transports[worker]) },
            requestsSent: { (0..<Self.workerCount).reduce(0) { $0 + server.requestCount(key: "race-\($1)") } })
    }

    @Test("page loads cancelled by the ten thousand while their requests are in flight, over the Python fixture server: no crash, each ends once")
    func loadsCancelledInFlight() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        try await Self.race(
            wanted: Self.inFlightCancelledLoadsWanted, server: "the Python fixture server",
            source: { worker in Self.source(server, key: "race-\(worker)") },
            requestsSent: {
                var sent = 0
                for worker in 0..<Self.workerCount { sent += try await server.requestCount(key: "race-\(worker)") }
                return sent
            })
    }

    /// `workerCount` tasks start batches of loads of one page and cancel each batch after a
    /// varying head start, or at the latest when its first load ends, until `wanted` loads were
    /// cancelled.
    static func race(
        wanted: Int, server: String,
        source: @escaping @Sendable (Int) -> HTTPPageSource<FixtureItem, String>,
        requestsSent: () async throws -> Int
    ) async throws {
        let perWorker = (wanted + Self.workerCount - 1) / Self.workerCount
        let started = ContinuousClock.now
        // A stall detector, not a time limit: 600 s for every 100,000 loads (they take 30-100 s).
        let totals = try await withDeadline(600 * max(1, wanted / 100_000 + 1), "\(wanted) cancelled loads") {
            try await withThrowingTaskGroup(of: (cancelled: Int, answered: Int).self) { workers in
                for worker in 0..<Self.workerCount {
                    workers.addTask {
                        let source = source(worker)
                        let request = PageRequest<String>(cursor: "40", side: .loadMore, pageSize: 5, clock: ContinuousClock())
                        var cancelled = 0
                        var answered = 0
                        var generator = SystemRandomNumberGenerator()
                        while cancelled < perWorker {
                            // Loads started together complete together: when the first ends,
                            // the others are cancelled, most of them while their responses
                            // arrive — the window in which `URLSessionTask.cancel()` trapped.
                            let round = try await withThrowingTaskGroup(of: Bool.self) { batch in
                                for _ in 0..<Self.batchSize {
                                    batch.addTask {
                                        do {
                                            let page = try await source.page(for: request)
                                            guard page.items.count == 5 else { throw BadPage(count: page.items.count) }
                                            return true
                                        } catch is CancellationError {
                                            return false
                                        }
                                    }
                                }
                                var round = (cancelled: 0, answered: 0)
                                // Cancel the batch after a varying head start (before the
                                // requests are sent, while they are answered), or at the latest
                                // when the first load ends.
                                let headStart = Int.random(in: 0...Self.maximumHeadStart, using: &generator)
                                await waitHeadStart(headStart)
                                if headStart == Self.maximumHeadStart {
                                    if try await batch.next() == true { round.answered += 1 } else { round.cancelled += 1 }
                                }
                                batch.cancelAll()
                                for try await loaded in batch {
                                    if loaded { round.answered += 1 } else { round.cancelled += 1 }
                                }
                                return round
                            }
                            cancelled += round.cancelled
                            answered += round.answered
                        }
                        return (cancelled, answered)
                    }
                }
                var totals = (cancelled: 0, answered: 0)
                for try await result in workers {
                    totals.cancelled += result.cancelled
                    totals.answered += result.answered
                }
                return totals
            }
        }
        let elapsed = ContinuousClock.now - started
        let sent = try await requestsSent()
        // Requests the server saw beyond those answered were cancelled in flight (on Linux the
        // server may see one after its load was cancelled: the data task still runs; a load
        // cancelled before its data task was made sends nothing).
        print("transport cancellation: \(totals.cancelled) page loads cancelled (\(sent - totals.answered) of them after their request was sent), \(totals.answered) answered, over URLSessionTransport against \(server) in \(elapsed)")
        #expect(totals.cancelled >= wanted)
    }

    @Test("load-mores preempted by refreshes over URLSessionTransport: no crash, nothing fails")
    func refreshesPreemptLoadMores() async throws {
        let server = try await FixtureServer.start()
        defer { server.stop() }
        let wanted = Self.preemptedLoadsWanted
        let perFeed = (wanted + Self.workerCount - 1) / Self.workerCount
        let started = ContinuousClock.now
        let totals = try await withDeadline(300 * max(1, wanted / 2_000 + 1), "\(wanted) preempted load-mores") {
            try await withThrowingTaskGroup(of: (preempted: Int, cycles: Int).self) { group in
                for feedIndex in 0..<Self.workerCount {
                    group.addTask {
                        let feed = FeedController(
                            source: Self.source(server, key: "preempt-\(feedIndex)"),
                            configuration: try FeedConfiguration(pageSize: 5, loadsInitialPage: false), id: \.id)
                        var preempted = 0
                        var cycles = 0
                        var generator = SystemRandomNumberGenerator()
                        _ = await feed.refresh()
                        while preempted < perFeed {
                            cycles += 1
                            let loadMore = Task { await feed.loadMore() }
                            // A varying head start, so that the refresh lands anywhere in the
                            // load-more's request.
                            await waitHeadStart(Int.random(in: 0...12, using: &generator))
                            let refresh = await feed.refresh()
                            let outcome = await loadMore.value.outcome
                            if outcome == .cancelled(.preemptedByRefresh) { preempted += 1 }
                            // (A load-more that starts after the refresh preempts the refresh.)
                            if case .failed = refresh.outcome {
                                Issue.record("feed \(feedIndex), cycle \(cycles): refresh \(refresh.outcome)")
                                break
                            }
                            if case .failed = outcome {
                                Issue.record("feed \(feedIndex), cycle \(cycles): load-more \(outcome)")
                                break
                            }
                        }
                        await feed.close()
                        return (preempted, cycles)
                    }
                }
                var totals = (preempted: 0, cycles: 0)
                for try await result in group {
                    totals.preempted += result.preempted
                    totals.cycles += result.cycles
                }
                return totals
            }
        }
        print("transport cancellation: \(totals.preempted) load-mores preempted by refreshes in \(totals.cycles) cycles over URLSessionTransport in \(ContinuousClock.now - started)")
        #expect(totals.preempted >= wanted)
    }
}

/// A page of the wrong size: the server answered something else than asked.
private struct BadPage: Error {
    let count: Int
}

/// A head start of `steps` short spins on a thread of its own, while the calling task waits
/// (its cooperative thread free for the loads and URLSession's threads running): varies where in
/// a request the cancellation lands, without sleeping or yielding in a loop.
private func waitHeadStart(_ steps: Int) async {
    guard steps > 0 else { return }
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for _ in 0..<(steps * 3_000) { state = state &* 6_364_136_223_846_793_005 &+ 1 }
            if state == 0 { print("", terminator: "") } // keeps the loop
            continuation.resume()
        }.start()
    }
}
