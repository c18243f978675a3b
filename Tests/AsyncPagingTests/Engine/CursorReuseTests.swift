import AsyncPaging
import AsyncPagingTesting
import Testing

/// `FeedConfiguration.allowsCursorReuse` (Paging 3's `keyReuseSupported`): a source that hands
/// out a cursor again — here a "latest" bucket whose token stays the same while its items
/// change — is followed instead of stopped with `repeatedCursor`, and what then bounds a real
/// loop.
@Suite("Cursor reuse")
struct CursorReuseTests {
    let clock = TestClock()

    /// Page nil holds 0..<3 and names bucket "b"; bucket "b" answers its `n`-th request with
    /// `10n..<10n+3` and names "b" again.
    func bucketSource() -> ScriptedPageSource<Int, String> {
        let requests = Locked(0)
        return ScriptedPageSource<Int, String> { request in
            guard request.cursor != nil else { return .page([0, 1, 2], next: "b") }
            let n = requests.withLock { $0 += 1; return $0 }
            return .page(Array(10 * n..<10 * n + 3), next: "b")
        }
    }

    func feed(
        _ source: ScriptedPageSource<Int, String>, reuse: Bool, duplicates: DuplicatePolicy = .drop,
        maximumItems: Int? = nil, emptyPages: Int = 3
    ) async throws -> FeedController<Int, String> {
        let configuration = try FeedConfiguration(
            pageSize: 3, duplicates: duplicates, maximumEmptyPagesFollowed: emptyPages, maximumItems: maximumItems,
            allowsCursorReuse: reuse)
        let feed = FeedController<Int, String>(source: source, clock: clock, configuration: configuration, id: { $0 })
        _ = await feed.waitForFirstPage()
        return feed
    }

    @Test("by default a reused cursor stops the end with repeatedCursor")
    func guardedByDefault() async throws {
        let source = bucketSource()
        let feed = try await feed(source, reuse: false)
        #expect(FeedConfiguration.default.allowsCursorReuse == false)
        let result = await feed.loadMore()
        guard case .failed(let failure) = result.outcome else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.error as? FeedError == .repeatedCursor("b"))
        #expect(feed.currentSnapshot.map { $0 } == [0, 1, 2, 10, 11, 12])
    }

    @Test("with allowsCursorReuse the same cursor is followed again, and each answer lands")
    func reuseFollowed() async throws {
        let source = bucketSource()
        let feed = try await feed(source, reuse: true)
        for _ in 0..<3 {
            #expect(await feed.loadMore() == .completed(.loadMore, applied: 3))
        }
        #expect(source.requests.map(\.cursor) == [nil, "b", "b", "b"])
        #expect(feed.currentSnapshot.map { $0 } == [0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32])
        // A refresh and more loads follow the same rule.
        #expect(await feed.refresh() == .completed(.refresh, applied: 3))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 3))
    }

    @Test("a real loop under reuse: one request per load, repeated items dropped, the list does not grow")
    func loopBoundedByDuplicates() async throws {
        let source = ScriptedPageSource<Int, String> { request in
            .page(request.cursor == nil ? [0, 1, 2] : [3, 4, 5], next: "loop")
        }
        let feed = try await feed(source, reuse: true)
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 3))
        for _ in 0..<5 {
            #expect(await feed.loadMore().outcome == .completed(LoadSummary(itemsApplied: 0, droppedDuplicates: 3)))
        }
        #expect(source.requests.count == 7)
        #expect(feed.currentSnapshot.map { $0 } == [0, 1, 2, 3, 4, 5])
    }

    @Test("a loop of empty pages that claim more under reuse fails past maximumEmptyPagesFollowed")
    func loopOfEmptyPages() async throws {
        let source = ScriptedPageSource<Int, String> { request in
            .page(request.cursor == nil ? [0, 1, 2] : [], next: "loop")
        }
        let feed = try await feed(source, reuse: true, emptyPages: 2)
        let result = await feed.loadMore()
        guard case .failed(let failure) = result.outcome else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        #expect(failure.error as? FeedError == .emptyPageClaimsMore)
        #expect(source.requests.count == 1 + 3, "the empty page and the two it followed")
    }

    @Test("a looping source that keeps duplicates is bounded by maximumItems")
    func loopBoundedByTheBound() async throws {
        let source = ScriptedPageSource<Int, String> { request in
            Page(items: [7, 8, 9], previous: request.cursor == nil ? nil : "loop", next: "loop").asResponse
        }
        let feed = try await feed(source, reuse: true, duplicates: .keep, maximumItems: 9)
        for _ in 0..<10 { #expect(await feed.loadMore() == .completed(.loadMore, applied: 3)) }
        #expect(feed.currentSnapshot.count == 9)
    }

    @Test("a restored feed with reuse allowed follows a cursor its pages were fetched with")
    func restoredReuse() async throws {
        let state = try FeedState(pages: [Page<Int, String>(items: [0, 1, 2], previous: nil, next: "b")])
        let source = bucketSource()
        let configuration = try FeedConfiguration(pageSize: 3, maximumItems: 100, allowsCursorReuse: true)
        let feed = FeedController<Int, String>(
            source: source, clock: clock, configuration: configuration, restoring: state, restorePolicy: .never, id: { $0 })
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 3))
        #expect(await feed.loadMore() == .completed(.loadMore, applied: 3))
        #expect(source.requests.map(\.cursor) == ["b", "b"])
    }
}

extension Page where Item: Sendable, Cursor: Hashable & Sendable {
    fileprivate var asResponse: ScriptedPageSource<Item, Cursor>.Response { .page(self) }
}
