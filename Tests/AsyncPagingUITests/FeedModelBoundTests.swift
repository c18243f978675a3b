import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Synchronization
import Testing

/// The model on a bounded feed (``FeedConfiguration/maximumItems``): it reports the rows on
/// screen, so the bound keeps the pages near them and the fill rule at both ends comes to rest.
@Suite("FeedModel with a bound") @MainActor
struct FeedModelBoundTests {
    /// One number a page, 0..<100: page `c` holds `c`, names `c - 1` and `c + 1`. After
    /// `limit` requests it fails, so that a model that never stops loading ends (and the test
    /// sees how many it made) instead of running for ever.
    static func onePerPage(limit: Int) -> Source {
        let served = Mutex(0)
        return Source { request in
            let count = served.withLock { count in
                count += 1
                return count
            }
            if count > limit { return .failure(Offline()) }
            let cursor = request.cursor ?? 0
            return page(cursor..<(cursor + 1), previous: cursor > 0 ? cursor - 1 : nil, next: cursor < 99 ? cursor + 1 : nil)
        }
    }

    func isSettled(_ model: FeedModel<Int, Int>) -> Bool {
        model.requestsInFlight == 0 && !model.loadStates.isLoading
    }

    @Test func aBoundOfFiveWithOneItemPagesFillsAroundTheRowAndStops() async throws {
        let source = Self.onePerPage(limit: 40)
        let configuration = try FeedConfiguration(pageSize: 1, maximumItems: 5)
        let (feed, _) = makeController(source: source, configuration: configuration, initialCursor: 50)
        let model = FeedModel(controller: feed, prefetch: PrefetchTrigger(prefetchDistance: 2))
        await waitUntil { model.items.count == 1 && isSettled(model) }
        model.visibleRowsChanged(0..<1) // post 50 on screen: near both ends, both fill
        await waitUntil {
            isSettled(model)
                && (model.loadStates.loadMore.isFailed || model.loadStates.loadPrevious.isFailed
                    || (!model.prefetch.isNearStart(row: model.items.firstIndex(of: 50) ?? 0, itemCount: model.items.count)
                        && !model.prefetch.isNearEnd(row: model.items.firstIndex(of: 50) ?? 0, itemCount: model.items.count)))
        }
        let requests = source.requests.count
        #expect(requests < 12, "the fill stops once the rows around post 50 are loaded: \(requests) requests")
        #expect(!model.loadStates.loadMore.isFailed && !model.loadStates.loadPrevious.isFailed)
        let items = Array(model.items)
        #expect(Array(48...52).allSatisfy(items.contains), "the prefetch window around post 50 stays: \(items)")
    }
}

extension FeedLoadState {
    fileprivate var isFailed: Bool { if case .failed = self { true } else { false } }
}
