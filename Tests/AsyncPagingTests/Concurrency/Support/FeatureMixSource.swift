import AsyncPaging

/// The source of the stress rounds that mix features (``FeatureMixRound``): on the real clock,
/// a line of pages at positions `0...last`, the page at `p` holding ids `10p ..< 10p + k` (the
/// same `k`, 1 to `pageSize`, every time it is fetched), naming `p - 1` as `previous` (none at
/// position 0: the start of the data) and `p + 1` as `next` (none at `last`: the end). The page
/// a refresh asks for (`nil` cursor) is position 0 with 0 to 2 new posts on top, ids from
/// 1,000,000 never answered before: a head-merging refresh merges them. Latencies of 0–2 ms,
/// 10% failures, answers that ignore cancellation.
///
/// Every page after the first names a `previous` and every page before the last a `next`, so
/// the bound can always drop pages at either end of a list of several pages, and every list
/// the engine builds from it is one chain of cursors: its export must always succeed.
final class FeatureMixSource: PageSource, Sendable {
    let seed: UInt64
    /// The last position: 0 makes the head page the whole data (its `next` is `nil`).
    let last: Int
    private let fetches = Locked(0)
    private let onProgress: @Sendable () -> Void

    struct MixFailure: Error, CustomStringConvertible {
        let fetch: Int
        var description: String { "mix failure of fetch \(fetch)" }
    }

    init(seed: UInt64, last: Int, onProgress: @escaping @Sendable () -> Void) {
        self.seed = seed
        self.last = last
        self.onProgress = onProgress
    }

    /// New posts start here; items inserted at the top by the test from 2,000,000.
    static let firstNewPost = 1_000_000

    /// The ids of the page at `position` (not counting new posts).
    func ids(at position: Int, pageSize: Int) -> [Int] {
        var random = SplitMix64(seed: seed, stream: UInt64(bitPattern: Int64(position)) &+ 1_000)
        return (0..<(1 + random.below(pageSize))).map { position * 10 + $0 }
    }

    func page(for request: PageRequest<Int>) async throws -> Page<StressRow, Int> {
        let number = fetches.withLock { count in
            defer { count += 1 }
            return count
        }
        defer { onProgress() }
        var random = SplitMix64(seed: seed, stream: UInt64(number))
        let latency: Duration = random.chance(30) ? .zero : .microseconds(random.below(2_001))
        let ignoresCancellation = random.chance(15)
        let fails = random.chance(10)
        let position = min(max(request.cursor ?? 0, 0), last)
        var ids = ids(at: position, pageSize: request.pageSize)
        if request.cursor == nil {
            ids = (0..<random.below(3)).map { Self.firstNewPost + number * 3 + $0 } + ids
        }
        if latency > .zero {
            if ignoresCancellation {
                // An unstructured task is not cancelled with ours: the latency runs out regardless.
                await Task { try? await ContinuousClock().sleep(for: latency) }.value
            } else {
                try await ContinuousClock().sleep(for: latency)
            }
        }
        if !ignoresCancellation { try Task.checkCancellation() }
        if fails { throw MixFailure(fetch: number) }
        return Page(
            items: ids.map { StressRow(id: $0, fetch: number) },
            previous: position == 0 ? nil : position - 1, next: position == last ? nil : position + 1)
    }
}
