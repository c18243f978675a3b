import AsyncPaging
import AsyncPagingTesting
import Testing

/// Edits without refetching — update, remove, insert at the top — on the test clock: what each
/// publishes, how they live with loads in flight, the bound and a refresh, and a randomized run
/// of edits and loads against a plain array.
@Suite("Edits")
struct EditTests {
    struct Note: Identifiable, Sendable, Equatable, CustomStringConvertible {
        let id: Int
        var text: String
        var description: String { "\(id):\(text)" }
    }

    typealias NoteFeed = FeedController<Note, Int>

    let clock = TestClock()

    /// Page `c` holds notes `10c..<10c+10` (text "v0"), previous `c - 1`, next `c + 1`, pages
    /// 0...99. `slowSide` answers after `latency`, the others at once.
    func feed(
        maximumItems: Int? = nil, latency: Duration = .zero, duplicates: DuplicatePolicy = .drop, at cursor: Int? = nil,
        slowSide: FeedSide = .loadMore
    ) async -> NoteFeed {
        let configuration: FeedConfiguration
        do {
            configuration = try FeedConfiguration(pageSize: 10, duplicates: duplicates, maximumItems: maximumItems)
        } catch { fatalError("\(error)") }
        let feed = NoteFeed(clock: clock, configuration: configuration, initialCursor: cursor) { request in
            let page = request.cursor ?? 0
            if request.side == slowSide && latency > .zero { try await request.clock.sleep(for: latency) }
            return Page(
                items: (page * 10..<page * 10 + 10).map { Note(id: $0, text: "v0") },
                previous: page > 0 ? page - 1 : nil, next: page < 99 ? page + 1 : nil)
        }
        await initialLoadEnded(feed)
        return feed
    }

    @Test("update replaces one item in place: change .updated, older snapshots unchanged")
    func updateReplacesInPlace() async throws {
        let feed = await feed()
        _ = await feed.loadMore()
        let before = feed.currentSnapshot
        let index = try await feed.update(Note(id: 13, text: "edited"))
        #expect(index == 13)
        let after = feed.currentSnapshot
        #expect(after.version == before.version + 1 && after.generation == before.generation)
        #expect(after.change == .updated([13]))
        #expect(after.count == 20 && after[13] == Note(id: 13, text: "edited") && after[12].text == "v0")
        #expect(before[13].text == "v0", "an older snapshot keeps what it showed")
        try await feed.update(id: 13) { $0.text += "!" }
        #expect(feed.currentSnapshot[13].text == "edited!")
    }

    @Test("edits that cannot apply throw a typed error and change nothing")
    func refusedEdits() async throws {
        let feed = await feed()
        let version = feed.currentSnapshot.version
        await #expect(throws: FeedEditError.notFound("500")) { try await feed.update(Note(id: 500, text: "x")) }
        await #expect(throws: FeedEditError.idChanged("3")) { try await feed.update(id: 3) { $0 = Note(id: 4, text: "x") } }
        await #expect(throws: FeedEditError.duplicateID("5")) { try await feed.insertAtTop([Note(id: 5, text: "x")]) }
        await #expect(throws: FeedEditError.duplicateID("-1")) {
            try await feed.insertAtTop([Note(id: -1, text: "x"), Note(id: -1, text: "y")])
        }
        #expect(try await feed.remove(ids: [700, 800]) == [])
        #expect(feed.currentSnapshot.version == version)
        let keeping = await self.feed(duplicates: .keep)
        await #expect(throws: FeedEditError.requiresUniqueIDs) { try await keeping.update(Note(id: 1, text: "x")) }
        await feed.close()
        await #expect(throws: FeedEditError.closed) { try await feed.remove(ids: [1]) }
    }

    @Test("remove drops items by id and says which indices went; a removed id can come back")
    func removeByID() async throws {
        let feed = await feed()
        _ = await feed.loadMore()
        let removed = try await feed.remove(ids: [15, 3, 999, 4])
        #expect(removed == [3, 4, 15])
        let after = feed.currentSnapshot
        #expect(after.change == .removed([3, 4, 15]))
        #expect(after.map(\.id) == Array(0..<3) + Array(5..<15) + Array(16..<20))
        #expect(try await feed.update(Note(id: 16, text: "after a removal")) == 13)
        #expect(feed.currentSnapshot[13].text == "after a removal")
        // A refresh brings the removed items back: their ids left the duplicate filter.
        _ = await feed.refresh()
        #expect(feed.currentSnapshot.map(\.id) == Array(0..<10))
        #expect(feed.currentSnapshot.change == .replaced)
    }

    @Test("remove skips ids not in the list: [2, 999] removes 2, returns its index, throws nothing")
    func removeSkipsUnknownIDs() async throws {
        let feed = await feed()
        let version = feed.currentSnapshot.version
        let removed = try await feed.remove(ids: [2, 999])
        #expect(removed == [2])
        let after = feed.currentSnapshot
        #expect(after.version == version + 1)
        #expect(after.change == .removed([2]))
        #expect(after.map(\.id) == [0, 1] + Array(3..<10))
    }

    @Test("remove is idempotent: the same ids twice remove once; the second call returns [] and publishes nothing")
    func removeTwice() async throws {
        let feed = await feed()
        #expect(try await feed.remove(ids: [4, 4, 7]) == [4, 7])
        let version = feed.currentSnapshot.version
        #expect(try await feed.remove(ids: [4, 7]) == [])
        #expect(try await feed.remove(ids: [Int]()) == [])
        #expect(feed.currentSnapshot.version == version)
        #expect(feed.currentSnapshot.map(\.id) == [0, 1, 2, 3, 5, 6, 8, 9])
        // Indices are in the list as it was before each call, ascending whatever the order of ids.
        #expect(try await feed.remove(ids: [9, 0]) == [0, 7])
        #expect(feed.currentSnapshot.map(\.id) == [1, 2, 3, 5, 6, 8])
    }

    @Test("remove skips an id the bound dropped, without an error")
    func removeAfterTheBoundDropped() async throws {
        let feed = await feed(maximumItems: 20)
        _ = await feed.loadMore()
        _ = await feed.loadMore() // the bound drops page 0 (ids 0..<10)
        #expect(feed.currentSnapshot.map(\.id) == Array(10..<30))
        #expect(try await feed.remove(ids: [5, 12]) == [2])
        #expect(feed.currentSnapshot.map(\.id) == [10, 11] + Array(13..<30))
    }

    @Test("insertAtTop puts a new item first, as a prepend; the page that brings it later drops it as a duplicate")
    func insertAtTop() async throws {
        let feed = await feed(at: 5)
        try await feed.insertAtTop([Note(id: 10_000, text: "just written")])
        let after = feed.currentSnapshot
        #expect(after.change == .prepended(0..<1))
        #expect(after.map(\.id) == [10_000] + Array(50..<60))
        #expect(try await feed.update(Note(id: 10_000, text: "edited")) == 0)
        let before = await self.feed(loadsNothing: true)
        await #expect(throws: FeedEditError.noList) { try await before.insertAtTop([Note(id: 1, text: "x")]) }
    }

    func feed(loadsNothing: Bool) async -> NoteFeed {
        let configuration: FeedConfiguration
        do { configuration = try FeedConfiguration(loadsInitialPage: false) } catch { fatalError("\(error)") }
        return NoteFeed(clock: clock, configuration: configuration) { _ in Page(items: [], next: nil) }
    }

    @Test("an edit made while a load-more is in flight stays when its page lands; the page lands around it")
    func editDuringALoadMore() async throws {
        let feed = await feed(latency: .seconds(1))
        async let more = feed.loadMore()
        await clock.waitForSleepers(1)
        try await feed.update(Note(id: 2, text: "edited"))
        try await feed.remove(ids: [7])
        clock.advance(by: .seconds(1))
        #expect(await more.outcome == .completed(LoadSummary(itemsApplied: 10)))
        let after = feed.currentSnapshot
        #expect(after.change == .appended(9..<19), "indices of the list with the removal")
        #expect(after.map(\.id) == Array(0..<7) + Array(8..<20))
        #expect(after[2].text == "edited")
    }

    @Test("edits made while a load-previous is in flight stay when its page lands before them")
    func editDuringALoadPrevious() async throws {
        let feed = await feed(latency: .seconds(1), at: 5, slowSide: .loadPrevious)
        async let older = feed.loadPrevious()
        await clock.waitForSleepers(1)
        try await feed.remove(ids: [50])
        try await feed.insertAtTop([Note(id: 9_999, text: "new")])
        try await feed.update(Note(id: 55, text: "edited"))
        clock.advance(by: .seconds(1))
        #expect(await older.outcome == .completed(LoadSummary(itemsApplied: 10)))
        let after = feed.currentSnapshot
        #expect(after.change == .prepended(0..<10))
        #expect(after.map(\.id) == Array(40..<50) + [9_999] + Array(51..<60))
        #expect(after[15].text == "edited")
    }

    @Test("a refresh that lands after an edit replaces the list, the edit with it")
    func refreshAfterAnEdit() async throws {
        let feed = await feed()
        try await feed.update(Note(id: 2, text: "edited"))
        _ = await feed.refresh()
        #expect(feed.currentSnapshot[2].text == "v0")
        // And edits work on the new list.
        try await feed.update(Note(id: 2, text: "again"))
        #expect(feed.currentSnapshot[2].text == "again")
    }

    @Test("across skipped versions, an edit in between says .replaced; without one, the usual changes")
    func changeSinceAcrossAnEdit() async throws {
        let feed = await feed()
        let seen = feed.currentSnapshot
        try await feed.update(Note(id: 1, text: "x"))
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.change(since: seen) == .replaced)
        let afterEdit = feed.currentSnapshot
        _ = await feed.loadMore()
        #expect(feed.currentSnapshot.change(since: afterEdit) == .appended(20..<30))
    }

    @Test("with the bound: edits in dropped pages go with them; removed items are not counted twice")
    func editsWithTheBound() async throws {
        let feed = await feed(maximumItems: 30)
        for _ in 0..<2 { _ = await feed.loadMore() } // 0..<30
        try await feed.remove(ids: [1, 25])
        try await feed.update(Note(id: 12, text: "edited"))
        _ = await feed.loadMore() // page 3 comes, page 0 goes (with the removal of 1)
        let after = feed.currentSnapshot
        #expect(after.map(\.id) == Array(10..<25) + Array(26..<40))
        #expect(after.change == .ends(FeedEndsChange(removedAtStart: 9, insertedAtEnd: 10)), "9 shown items of page 0 went")
        #expect(after[2].text == "edited")
        // Back up: page 0 comes again, note 1 with it; page 3 goes.
        _ = await feed.loadPrevious()
        #expect(feed.currentSnapshot.map(\.id) == Array(0..<25) + Array(26..<30))
        #expect(feed.currentSnapshot[12].text == "edited")
    }

    @Test("many edits fold into the list and the list stays right", .timeLimit(.minutes(1)))
    func manyEditsFold() async throws {
        let feed = await feed()
        for _ in 0..<9 { _ = await feed.loadMore() } // 0..<100
        var expected = (0..<100).map { Note(id: $0, text: "v0") }
        for round in 0..<(NoteFeed.editsFoldedAt + 200) {
            let id = (round * 37) % 100
            if let index = expected.firstIndex(where: { $0.id == id }) {
                try await feed.update(Note(id: id, text: "r\(round)"))
                expected[index].text = "r\(round)"
            }
        }
        try await feed.remove(ids: [0, 50, 99])
        expected.removeAll { [0, 50, 99].contains($0.id) }
        #expect(Array(feed.currentSnapshot) == expected)
        _ = await feed.loadMore()
        expected += (100..<110).map { Note(id: $0, text: "v0") }
        #expect(Array(feed.currentSnapshot) == expected)
        #expect(feed.currentSnapshot.change == .appended(97..<107))
    }

    @Test("random loads at both ends and edits agree with a plain array", arguments: 0..<6)
    func randomEditsAndLoads(seed: Int) async throws {
        var random = SplitMix64(seed: UInt64(seed))
        let feed = await feed(at: 50)
        var expected = (500..<510).map { Note(id: $0, text: "v0") }
        var nextInserted = 100_000
        var (firstPage, lastPage) = (50, 50)
        var versionsSeen = [feed.currentSnapshot]
        for step in 0..<120 {
            switch random.next() % 6 {
            case 0:
                if case .completed(let summary) = await feed.loadMore().outcome, summary.itemsApplied > 0 {
                    lastPage += 1
                    expected += (lastPage * 10..<lastPage * 10 + 10).map { Note(id: $0, text: "v0") }
                }
            case 1:
                if case .completed(let summary) = await feed.loadPrevious().outcome, summary.itemsApplied > 0 {
                    firstPage -= 1
                    expected.insert(contentsOf: (firstPage * 10..<firstPage * 10 + 10).map { Note(id: $0, text: "v0") }, at: 0)
                }
            case 2 where !expected.isEmpty:
                let index = Int(random.next() % UInt64(expected.count))
                try await feed.update(Note(id: expected[index].id, text: "s\(step)"))
                expected[index].text = "s\(step)"
            case 3 where expected.count > 1:
                let ids = (0..<Int(random.next() % 3 + 1)).map { _ in expected[Int(random.next() % UInt64(expected.count))].id }
                let olderIndices = Set(ids).compactMap { id in expected.firstIndex { $0.id == id } }.sorted()
                #expect(try await feed.remove(ids: ids) == olderIndices)
                expected.removeAll { ids.contains($0.id) }
            case 4:
                try await feed.insertAtTop([Note(id: nextInserted, text: "new")])
                expected.insert(Note(id: nextInserted, text: "new"), at: 0)
                nextInserted += 1
            default:
                break
            }
            let snapshot = feed.currentSnapshot
            #expect(Array(snapshot) == expected, "seed \(seed), step \(step)")
            if Array(snapshot) != expected { return }
            versionsSeen.append(snapshot)
        }
        // Any two versions: the change between them describes them (an edit between says .replaced).
        for (older, newer) in zip(versionsSeen, versionsSeen.dropFirst(3)) where older.version != newer.version {
            let change = newer.change(since: older)
            if case .replaced = change { continue }
            BoundedStoreTests.expectDescribes(change, from: older.map(\.id), to: newer.map(\.id))
        }
    }

    /// The list as pages, for the bound: each page keeps a slot per item it brought (`nil` once
    /// removed: the bound counts it until its page goes), as the documentation says.
    struct PageModel {
        struct ModelPage {
            var number: Int
            var slots: [Note?]
        }

        var pages: [ModelPage]
        let maximum: Int

        var shown: [Note] { pages.flatMap { $0.slots.compactMap { $0 } } }
        var slotCount: Int { pages.reduce(0) { $0 + $1.slots.count } }

        /// Drops whole pages at the far end while over the bound, as long as the page that
        /// becomes the edge names a cursor back (page 0 has no `previous`; page 99 no `next`).
        mutating func trim(droppingAtStart: Bool) {
            while slotCount > maximum && pages.count > 1 {
                if droppingAtStart {
                    guard pages[1].number > 0 else { return }
                    pages.removeFirst()
                } else {
                    guard pages[pages.count - 2].number < 99 else { return }
                    pages.removeLast()
                }
            }
        }

        mutating func update(_ note: Note) {
            for p in pages.indices {
                for s in pages[p].slots.indices where pages[p].slots[s]?.id == note.id { pages[p].slots[s] = note }
            }
        }

        mutating func remove(_ ids: [Int]) {
            for p in pages.indices {
                for s in pages[p].slots.indices where pages[p].slots[s].map({ ids.contains($0.id) }) ?? false {
                    pages[p].slots[s] = nil
                }
            }
        }
    }

    @Test("random loads at both ends, edits and a bound agree with a model of pages", arguments: 0..<8)
    func randomEditsLoadsAndTheBound(seed: Int) async throws {
        var random = SplitMix64(seed: UInt64(seed) &+ 1_000)
        let maximum = 25 + Int(random.next() % 20)
        let feed = await feed(maximumItems: maximum, at: 50)
        var model = PageModel(pages: [.init(number: 50, slots: (500..<510).map { Note(id: $0, text: "v0") })], maximum: maximum)
        var nextInserted = 100_000
        for step in 0..<150 {
            switch random.next() % 7 {
            case 0, 1:
                let last = model.pages.last!.number
                let outcome = await feed.loadMore().outcome
                if last < 99 {
                    #expect(outcome == .completed(LoadSummary(itemsApplied: 10)), "seed \(seed) step \(step)")
                    model.pages.append(.init(number: last + 1, slots: ((last + 1) * 10..<(last + 2) * 10).map { Note(id: $0, text: "v0") }))
                    model.trim(droppingAtStart: true)
                }
            case 2, 3:
                let first = model.pages.first!.number
                _ = await feed.loadPrevious()
                if first > 0 {
                    model.pages.insert(.init(number: first - 1, slots: ((first - 1) * 10..<first * 10).map { Note(id: $0, text: "v0") }), at: 0)
                    model.trim(droppingAtStart: false)
                }
            case 4:
                let shown = model.shown
                guard !shown.isEmpty else { break }
                let note = Note(id: shown[Int(random.next() % UInt64(shown.count))].id, text: "s\(step)")
                try await feed.update(note)
                model.update(note)
            case 5:
                let shown = model.shown
                guard shown.count > 1 else { break }
                let ids = [shown[Int(random.next() % UInt64(shown.count))].id]
                try await feed.remove(ids: ids)
                model.remove(ids)
            default:
                let note = Note(id: nextInserted, text: "new")
                nextInserted += 1
                try await feed.insertAtTop([note])
                model.pages[0].slots.insert(note, at: 0)
            }
            let shown = Array(feed.currentSnapshot)
            #expect(shown == model.shown, "seed \(seed), step \(step), bound \(maximum)")
            if shown != model.shown { return }
        }
    }
}
