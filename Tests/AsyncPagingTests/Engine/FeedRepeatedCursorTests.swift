import AsyncPaging
import AsyncPagingTesting
import Testing

/// The feed's repeated-cursor guard is exact (it keeps every cursor it fetched, one per page it
/// holds): unlike the page sequences, which catch a long loop up to a loop later, a feed stops at
/// the first repeat of any cursor, however far back, through the growth of its cursor set.
@Suite("The feed's repeated-cursor guard, far apart")
struct FeedRepeatedCursorTests {
    let clock = TestClock()

    /// Page `c` holds `[c]` and names `c + 1` up to `last`, whose page names `repeated`.
    func loopingSource(last: Int, repeated: Int) -> ScriptedPageSource<Int, Int> {
        ScriptedPageSource<Int, Int>(responder: { request in
            let cursor = request.cursor ?? 0
            return .page([cursor], next: cursor < last ? cursor + 1 : repeated)
        })
    }

    @Test("a cursor repeated after 3,000 pages stops the feed at its first repeat: loops of 1, 2, 9 and 3,000 pages",
          arguments: [3_000, 2_999, 2_992, 1, 5])
    func stopsAtFirstRepeat(repeated: Int) async throws {
        let source = loopingSource(last: 3_000, repeated: repeated)
        let configuration = try FeedConfiguration(pageSize: 1, duplicates: .keep)
        let feed = FeedController(source: source, clock: clock, configuration: configuration)
        _ = await feed.waitForFirstPage()
        var failure: FeedFailure?
        for _ in 0..<3_100 {
            let result = await feed.loadMore()
            if case .failed(let failed) = result.outcome {
                failure = failed
                break
            }
        }
        #expect(failure == FeedFailure(error: FeedError.repeatedCursor("\(repeated)"), side: .loadMore, attempt: 1))
        #expect(feed.currentSnapshot.map { $0 } == Array(0...3_000))
        #expect(source.requests.count == 3_001)
        await feed.close()
    }
}
