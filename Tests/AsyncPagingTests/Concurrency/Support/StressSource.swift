import AsyncPaging

/// The item of the stress test: a unique id, and the fetch whose page brought it.
struct StressRow: Identifiable, Sendable, Hashable, CustomStringConvertible {
    let id: Int
    let fetch: Int
    var description: String { "#\(id)" }
}

/// A source on the real clock whose answers vary at random: small latencies (0–2 ms, or none
/// at all), failures, empty pages, the end and the start of the data, and answers that ignore
/// cancellation.
///
/// Every fetch gets a number, in the order requests arrive; its page's items have ids
/// `fetch * 1000 + i` (unique across the run) and its `previous` and `next` cursors are the
/// fetch's own number, so the cursor of a load-more names the fetch whose page it continues, and
/// that of a load-previous the fetch whose page it comes before. The log of fetches is what
/// the list is checked against (``AppliedPagesCheck``).
final class StressSource: PageSource, Sendable {
    enum Answer: Sendable, Equatable {
        case page(ids: [Int], previous: Int?, next: Int?)
        case failure
        case cancelled
    }

    struct Fetch: Sendable {
        let side: FeedSide
        let cursor: Int?
        var answer: Answer?
    }

    struct StressFailure: Error, CustomStringConvertible {
        let fetch: Int
        var description: String { "stress failure of fetch \(fetch)" }
    }

    private let seed: UInt64
    private let fetches = Locked<[Fetch]>([])
    private let onProgress: @Sendable () -> Void

    init(seed: UInt64, onProgress: @escaping @Sendable () -> Void) {
        self.seed = seed
        self.onProgress = onProgress
    }

    /// Every fetch so far, by number.
    var log: [Fetch] { fetches.withLock { $0 } }

    func page(for request: PageRequest<Int>) async throws -> Page<StressRow, Int> {
        let number = fetches.withLock { fetches in
            fetches.append(Fetch(side: request.side, cursor: request.cursor))
            return fetches.count - 1
        }
        var random = SplitMix64(seed: seed, stream: UInt64(number))
        let latency: Duration = random.chance(30) ? .zero : .microseconds(random.below(2_001))
        let ignoresCancellation = random.chance(15)
        let roll = random.below(100)
        let page: Page<StressRow, Int>?
        switch roll {
        case 0..<15:
            page = nil // a failure
        case 15..<25:
            // An empty page: the end of the data both ways for a refresh; at an end, half of them
            // claim more in their direction (a server that filtered a whole page).
            let claimsMore = request.side != .refresh && random.chance(50)
            page = switch request.side {
            case .loadPrevious: Page(items: [], previous: claimsMore ? number : nil, next: nil)
            default: Page(items: [], previous: nil, next: claimsMore ? number : nil)
            }
        default:
            let count = 1 + random.below(request.pageSize)
            let items = (0..<count).map { StressRow(id: number * 1000 + $0, fetch: number) }
            // Now and then a page is the last one in one direction (the end or the start of the data).
            let startOfData = request.side != .loadMore && random.chance(12)
            page = Page(items: items, previous: startOfData ? nil : number, next: roll < 33 ? nil : number)
        }
        do {
            if latency > .zero {
                if ignoresCancellation {
                    // An unstructured task is not cancelled with ours: the latency runs out regardless.
                    await Task { try? await ContinuousClock().sleep(for: latency) }.value
                } else {
                    try await ContinuousClock().sleep(for: latency)
                }
            }
            if !ignoresCancellation { try Task.checkCancellation() }
        } catch {
            record(number, .cancelled)
            throw error
        }
        guard let page else {
            record(number, .failure)
            throw StressFailure(fetch: number)
        }
        record(number, .page(ids: page.items.map(\.id), previous: page.previous, next: page.next))
        return page
    }

    private func record(_ number: Int, _ answer: Answer) {
        fetches.withLock { $0[number].answer = answer }
        onProgress()
    }
}
