import AsyncPaging
import AsyncPagingTesting

/// What the scripted source answers to each request of one randomized run: a pure function of
/// the run's seed, the request's position and its cursor, so the engine's source and the
/// reference model agree on every answer without sharing any state.
///
/// The data behind it is a line of pages at integer positions, both ways from 0 (the page a
/// `nil` cursor asks for): the page at position `p` holds ids `3p, 3p + 1, 3p + 2` (or fewer),
/// its `previous` is normally `p - 1` and its `next` `p + 1`. Every page has both cursors, so a
/// run that opens at a cursor (`initialCursor`, `refresh(from:)`) loads both ways. Bad input
/// comes at both ends: failures, hangs, slow answers that ignore cancellation, empty pages that
/// claim more, the start or the end of the data, cursors that point back at pages already
/// fetched (a loop), and duplicate ids. The page a `nil` cursor asks for sometimes starts with
/// new posts (ids from 1,000,000 that no other answer has), for head-merging refreshes. In some
/// runs no page names a `previous` (a source that
/// pages forward only).
struct ResponsePlan: Sendable {
    /// One planned answer.
    struct Response: Sendable, Equatable, CustomStringConvertible {
        enum Result: Sendable, Equatable {
            case page(ids: [Int], previous: Int?, next: Int?)
            case failure(ScriptedFailure)
            case hang
        }

        var result: Result
        /// Zero answers without sleeping; a hang sleeps "forever" (a year) on the clock.
        var latency: Duration
        var ignoresCancellation: Bool

        /// The deadline a fetch sleeps until when it starts at `now`; `nil` when it does not sleep.
        func deadline(startingAt now: Duration) -> Duration? {
            if result == .hang { return now + ResponsePlan.hangDuration }
            return latency > .zero ? now + latency : nil
        }

        var scripted: RowSource.Response {
            switch result {
            case .page(let ids, let previous, let next):
                .page(
                    Page(items: rows(ids), previous: previous, next: next), latency: latency,
                    ignoresCancellation: ignoresCancellation)
            case .failure(let error):
                .failure(error, latency: latency, ignoresCancellation: ignoresCancellation)
            case .hang:
                .hang
            }
        }

        var description: String {
            let timing = latency == .zero ? "at once" : "after \(latency)"
            let ignoring = ignoresCancellation ? ", ignoring cancellation" : ""
            switch result {
            case .page(let ids, let previous, let next):
                return "page \(ids) previous \(previous.map(String.init) ?? "nil") next \(next.map(String.init) ?? "nil") \(timing)\(ignoring)"
            case .failure: return "failure \(timing)\(ignoring)"
            case .hang: return "hang"
            }
        }
    }

    /// How long `ScriptedPageSource` sleeps for a hanging response.
    static let hangDuration: Duration = .seconds(86_400 * 365)
    /// Latencies of slow answers. None equals the timeout (5 s), so a fetch and its own
    /// timeout never fall due at the same instant, which would race.
    static let latencies: [Duration] = [.seconds(1), .seconds(2), .seconds(3), .seconds(4), .seconds(7)]

    let seed: UInt64
    /// Whether request 0 is the initial load: it must sleep, so that the test subscribes
    /// before anything is published.
    let firstRequestSleeps: Bool
    /// A source that pages forward only (`Page(items:next:)`): no page names a `previous`, so
    /// the list starts at its first page and the bound can never drop pages at the start.
    var forwardOnly = false
    /// Less bad input (1% hangs, 5% failures, 3% empty pages, fewer loops): the runs that mix
    /// features need long chains of loads that land.
    var calm = false

    func response(forRequest index: Int, cursor: Int?) -> Response {
        var random = SplitMix64(seed: seed, stream: UInt64(index) &+ 1)
        var kind = random.below(100)
        if calm {
            // Hangs, failures and empty pages mapped onto 1%, 5% and 3%; the rest are pages.
            kind = switch kind {
            case ..<1: 0
            case ..<6: 10
            case ..<9: 25
            default: 32 + (kind - 9) * 68 / 91
            }
        }
        var latency: Duration = random.chance(40) ? .zero : random.pick(Self.latencies)
        if index == 0 && firstRequestSleeps && latency == .zero { latency = .seconds(1) }
        let ignoresCancellation = latency > .zero && random.chance(35)
        if kind < 4 {
            return Response(result: .hang, latency: .zero, ignoresCancellation: false)
        }
        if kind < 22 {
            return Response(
                result: .failure(ScriptedFailure(request: index)), latency: latency,
                ignoresCancellation: ignoresCancellation)
        }
        let position = cursor ?? 0
        let next: Int?
        switch random.below(100) {
        case ..<62: next = position + 1
        case ..<72 where !calm || random.chance(30): next = nil // the end of the data
        case ..<86 where !calm || random.chance(20): next = position - random.below(3) // back at this page or one before it: a loop
        default: next = position + 1
        }
        var previous: Int?
        switch random.below(100) {
        // The page a nil cursor asks for is mostly the start of the data, as for a source that
        // only pages forward.
        case ..<(cursor == nil ? 85 : 10): previous = nil
        case ..<72: previous = position - 1
        case ..<86 where !calm || random.chance(20): previous = position + random.below(3) // back at this page or one after it: a loop
        default: previous = position - 1
        }
        if forwardOnly { previous = nil }
        var ids: [Int] = []
        if kind >= 32 { // 10% empty pages
            let count = 1 + random.below(3)
            ids = (0..<count).map { position * 3 + $0 }
            if random.chance(15) { ids[random.below(count)] = position * 3 + random.below(7) - 3 } // a neighbour's id
            if cursor == nil && random.chance(40) {
                // New posts at the head: ids no other answer has, before the page's own (or
                // instead of them: more new posts than a page).
                let new = (0..<(1 + random.below(3))).map { 1_000_000 + index * 3 + $0 }
                ids = random.chance(25) ? new : new + ids
            }
        }
        return Response(
            result: .page(ids: ids, previous: previous, next: next), latency: latency,
            ignoresCancellation: ignoresCancellation)
    }

    /// A source that answers request *n* with `response(forRequest: n, ...)` and bumps
    /// `progress` once it has recorded the request.
    func makeSource(progress: Progress) -> RowSource {
        let counter = Locked(0)
        return RowSource { [self] request in
            let index = counter.withLock { count -> Int in
                defer { count += 1 }
                return count
            }
            progress.signal()
            return response(forRequest: index, cursor: request.cursor).scripted
        }
    }
}
