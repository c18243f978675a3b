import AsyncPaging
import AsyncPagingTesting
import Testing

/// The duplicate filter records where each item is in the list (its position, not its id):
/// these runs check that it follows the list when the positions change under it — edits folded
/// into a new list, pages dropped by the bound at both ends, pages prepended with duplicates.
@Suite("Duplicate filter positions")
struct DuplicateFilterPositionsTests {
    struct Note: Identifiable, Sendable, Equatable {
        let id: Int
        var text = "v0"
    }

    typealias NoteFeed = FeedController<Note, Int>

    let clock = TestClock()

    /// Pages of 100 notes: page `c` holds ids `100c..<100c+100`, but page 12 holds `extra`
    /// then `1200..<1210`.
    func feed(maximumItems: Int? = nil, at cursor: Int? = nil, extra: [Int] = []) async throws -> NoteFeed {
        let configuration = try FeedConfiguration(pageSize: 100, maximumItems: maximumItems)
        let feed = NoteFeed(clock: clock, configuration: configuration, initialCursor: cursor) { request in
            let page = request.cursor ?? 0
            let ids = page == 12 ? extra + Array(1_200..<1_210) : Array(page * 100..<page * 100 + 100)
            return Page(items: ids.map { Note(id: $0) }, previous: page > 0 ? page - 1 : nil, next: page < 12 ? page + 1 : nil)
        }
        await initialLoadEnded(feed)
        return feed
    }

    @Test("after edits fold into a new list, the filter finds, removes and drops by the new positions")
    func foldRenumbers() async throws {
        // 1100 and 1120 are removed below; 1105 and 25 are in the list; 30 was removed by the fold's edits.
        let feed = try await feed(extra: [1_100, 1_105, 25, 30, 1_120, 1_100])
        for _ in 0..<11 { _ = await feed.loadMore() }
        #expect(feed.currentSnapshot.count == 1_200)
        // 1,026 removals, scattered: the folded list keeps every tenth item below 1,140.
        let removed = (0..<1_140).filter { $0 % 10 != 5 }
        try await feed.remove(ids: removed)
        var expected = (0..<1_200).filter { $0 >= 1_140 || $0 % 10 == 5 }
        #expect(feed.currentSnapshot.map(\.id) == expected)
        // Edits after the fold: a removal (by its new position) and an update.
        try await feed.remove(ids: [1_120])
        expected.removeAll { $0 == 1_120 }
        try await feed.update(Note(id: 1_105, text: "edited"))
        let result = await feed.loadMore()
        guard case .completed(let summary) = result.outcome else {
            Issue.record("\(result.outcome)")
            return
        }
        // 1105 and 25 are duplicates, and so is the second 1100; 1100, 30 and 1120 come back.
        #expect(summary.itemsApplied == 13 && summary.droppedDuplicates == 3)
        expected += [1_100, 30, 1_120] + Array(1_200..<1_210)
        #expect(feed.currentSnapshot.map(\.id) == expected)
    }

    @Test("pages dropped by the bound at either end and loaded again come back whole")
    func boundDropsAndReloads() async throws {
        let feed = try await feed(maximumItems: 300, at: 6)
        /// Whether the list is whole: consecutive ids, none dropped as a false duplicate.
        func isWhole(_ ids: [Int]) -> Bool { ids.count >= 200 && zip(ids, ids.dropFirst()).allSatisfy { $1 == $0 + 1 } }
        for _ in 0..<4 {
            _ = await feed.loadMore()
            #expect(isWhole(feed.currentSnapshot.map(\.id)), "\(feed.currentSnapshot.map(\.id))")
        }
        for _ in 0..<8 {
            _ = await feed.loadPrevious()
            #expect(isWhole(feed.currentSnapshot.map(\.id)), "\(feed.currentSnapshot.map(\.id))")
        }
        #expect(feed.currentSnapshot.first?.id == 0)
        for _ in 0..<3 {
            _ = await feed.loadMore()
            #expect(isWhole(feed.currentSnapshot.map(\.id)), "\(feed.currentSnapshot.map(\.id))")
        }
        try await feed.insertAtTop([Note(id: 5_000), Note(id: 5_001)])
        #expect(Array(feed.currentSnapshot.map(\.id).prefix(2)) == [5_000, 5_001])
        #expect(isWhole(Array(feed.currentSnapshot.map(\.id).dropFirst(2))))
        // Down and back up again: the inserted items went with their page, and the ids left
        // the filter where they were.
        for _ in 0..<6 { _ = await feed.loadMore() }
        for _ in 0..<12 { _ = await feed.loadPrevious() }
        #expect(feed.currentSnapshot.first?.id == 0)
        #expect(isWhole(feed.currentSnapshot.map(\.id)), "\(feed.currentSnapshot.map(\.id))")
    }
}
