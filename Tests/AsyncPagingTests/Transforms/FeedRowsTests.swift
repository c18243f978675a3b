import AsyncPaging
import AsyncPagingTesting
import Synchronization
import Testing

/// Transformed rows (``FeedTransform``, ``FeedRowsTransformer``, ``FeedController/rows(_:)``)
/// on the test clock: map, filter and separators as pages land at both ends, as the bound drops
/// them, after edits, head merges and a restore. Every step checks the invariant of
/// ``RowsChecker``: the rows are the transform of the whole list, and applying each change to
/// an array of rows gives exactly them.
@Suite("Transformed rows")
struct FeedRowsTests {
    let clock = TestClock()

    /// Whether `change` only added rows at the end.
    func onlyAppended(_ change: FeedRowsChange) -> Bool {
        if case .ends(let ends) = change { ends.removedAtStart == 0 && ends.insertedAtStart == 0 && ends.removedAtEnd == 0 } else { false }
    }

    /// Whether `change` only added rows at the start.
    func onlyPrepended(_ change: FeedRowsChange) -> Bool {
        if case .ends(let ends) = change { ends.removedAtStart == 0 && ends.insertedAtEnd == 0 && ends.removedAtEnd == 0 } else { false }
    }

    @Test("loads at both ends: each page's items transformed once, its rows added at its end; the header once the start is reached, the footer at the end")
    func loadsAtBothEnds() async {
        let feed = await messageFeed(clock: clock, at: 5)
        let checker = RowsChecker()
        let first = checker.check(feed)
        #expect(first.change == .replaced)
        #expect(first.map(\.description).prefix(4) == ["m50", "m51", "D13", "m52"], "a day row between days, no header: the start is not reached")
        #expect(checker.calls.map == 10)
        checker.calls.reset()
        _ = await feed.loadMore()
        let appended = checker.check(feed)
        #expect(appended.change == .ends(FeedEndsChange(insertedAtEnd: 13)), "10 messages and the day rows 15, 16, 17 (the first across the page boundary)")
        #expect(checker.calls.map == 10 && checker.calls.filter == 10 && checker.calls.separator == 10, "only the new page's items")
        for _ in 0..<5 {
            checker.calls.reset()
            _ = await feed.loadPrevious()
            let rows = checker.check(feed)
            #expect(onlyPrepended(rows.change), "\(rows.change)")
            #expect(checker.calls.map == 10)
        }
        #expect(feed.currentLoadStates.loadPrevious == .reachedEnd)
        #expect(checker.transformer.rows?.first == .start(0), "the header once the start is reached")
        while feed.currentLoadStates.loadMore != .reachedEnd {
            checker.calls.reset()
            _ = await feed.loadMore()
            let rows = checker.check(feed)
            #expect(onlyAppended(rows.change), "\(rows.change)")
            #expect(checker.calls.map == 10)
        }
        #expect(checker.transformer.rows?.last == .end(24), "the footer after the last message")
        #expect(checker.transformer.rows?.count == 100 + 24 + 2)
    }

    @Test("the bound drops pages at both ends: their rows go, no function runs for them, the header goes with the first page")
    func boundDropsAtBothEnds() async {
        let feed = await messageFeed(clock: clock, at: 1, maximumItems: 30)
        let checker = RowsChecker()
        checker.check(feed)
        _ = await feed.loadPrevious() // page 0: the start is reached, the header comes
        #expect(checker.check(feed).first == .start(0))
        _ = await feed.loadMore()
        checker.check(feed)
        for _ in 0..<3 {
            checker.calls.reset()
            _ = await feed.loadMore()
            let rows = checker.check(feed)
            guard case .ends(let ends) = rows.change else {
                Issue.record("a drop at the start: \(rows.change)")
                continue
            }
            #expect(ends.removedAtStart > 0 && ends.insertedAtEnd > 0 && ends.insertedAtStart == 0)
            #expect(checker.calls.map == 10, "only the landed page is mapped")
        }
        #expect(feed.currentSnapshot.map(\.id) == Array(30..<60))
        #expect(checker.transformer.rows?.first == .message(30, "v0"), "no header: page 0 was dropped")
        for _ in 0..<3 {
            checker.calls.reset()
            _ = await feed.loadPrevious()
            let rows = checker.check(feed)
            guard case .ends(let ends) = rows.change else {
                Issue.record("a drop at the end: \(rows.change)")
                continue
            }
            #expect(ends.removedAtEnd > 0 && ends.insertedAtStart > 0)
            #expect(checker.calls.map == 10)
        }
        #expect(checker.transformer.rows?.first == .start(0))
    }

    @Test("the bound drops pages at the end after the end was reached: the footer goes")
    func boundDropsTheFooter() async {
        let feed = await messageFeed(clock: clock, at: 7, maximumItems: 20)
        let checker = RowsChecker()
        checker.check(feed)
        _ = await feed.loadMore()
        _ = await feed.loadMore()
        #expect(checker.check(feed).last == .end(24))
        _ = await feed.loadPrevious()
        _ = await feed.loadPrevious()
        let rows = checker.check(feed)
        #expect(!rows.contains(.end(24)), "page 9 was dropped: its footer too")
    }

    @Test("separators across page boundaries: a day row between the last message of a page and the first of the next when their days differ")
    func separatorsAcrossPages() async {
        let feed = await messageFeed(clock: clock)
        let checker = RowsChecker()
        checker.check(feed)
        _ = await feed.loadMore() // 9 (day 2) → 10 (day 2): no row; 
        _ = await feed.loadMore() // 19 (day 4) → 20 (day 5): a day row
        let rows = Array(checker.check(feed))
        let at19 = rows.firstIndex(of: .message(19, "v0"))!
        #expect(rows[at19 + 1] == .day(5) && rows[at19 + 2] == .message(20, "v0"))
        let at9 = rows.firstIndex(of: .message(9, "v0"))!
        #expect(rows[at9 + 1] == .message(10, "v0"))
    }

    @Test("a filter that drops every item of a page: nothing changes when it lands, and the next page's first item is separated from the last kept one")
    func filterDropsAWholePage() async {
        let feed = await messageFeed(clock: clock, hidden: Set(20..<30))
        let checker = RowsChecker()
        checker.check(feed)
        _ = await feed.loadMore()
        checker.check(feed)
        checker.calls.reset()
        _ = await feed.loadMore()
        let hiddenPage = checker.check(feed)
        #expect(hiddenPage.change == .unchanged)
        #expect(checker.calls.map == 0 && checker.calls.filter == 10)
        _ = await feed.loadMore()
        let rows = Array(checker.check(feed))
        let at19 = rows.firstIndex(of: .message(19, "v0"))!
        #expect(rows[at19 + 1] == .day(7) && rows[at19 + 2] == .message(30, "v0"), "19 (day 4) and 30 (day 7) are neighbours")
    }

    @Test("edits of a separator's neighbour: update, remove and hide make the separators next to them again, and only those")
    func editsOfNeighbours() async throws {
        let feed = await messageFeed(clock: clock)
        _ = await feed.loadMore()
        let checker = RowsChecker()
        checker.check(feed)
        // S0 m0 m1 m2 m3 D1 m4 …: message 4 moves to day 0; its day row goes, one comes before 5.
        checker.calls.reset()
        try await feed.update(id: 4) { $0.day = 0 }
        let moved = checker.check(feed)
        #expect(moved.change == .rows(removed: [5], inserted: [6], updated: [5]))
        #expect(checker.calls.map == 1 && checker.calls.separator == 2, "message 4 and the day rows before 4 and 5")
        // Removing 8 (day 2, after 7 of day 1): its row and day row go, 9 gets the day row.
        checker.calls.reset()
        try await feed.remove(ids: [8])
        let removed = checker.check(feed)
        guard case .rows(let gone, let added, _) = removed.change else {
            Issue.record("\(removed.change)")
            return
        }
        #expect(gone.count == 2 && added.count == 1)
        #expect(checker.calls.map == 0 && checker.calls.separator == 1)
        // Removing the first message makes the header again (its item went).
        try await feed.remove(ids: [0])
        #expect(checker.check(feed).change == .rows(removed: [1], inserted: [], updated: [0]))
        // Hiding a message through an edit, and showing it again.
        try await feed.update(id: 12) { $0.hidden = true }
        checker.check(feed)
        try await feed.update(id: 12) { $0.hidden = false }
        checker.check(feed)
        // Updating a message's text: only its row.
        checker.calls.reset()
        try await feed.update(id: 14) { $0.text = "edited" }
        let edited = checker.check(feed)
        if case .rows(let gone, let added, let updated) = edited.change {
            #expect(gone.isEmpty && added.isEmpty && updated.count == 1, "only its row: 13, 14 and 15 share day 3 (\(updated))")
        } else {
            Issue.record("\(edited.change)")
        }
        // Inserting at the top: the header is made for the new first message.
        try await feed.insertAtTop([Message(id: -1, day: -1)])
        let inserted = checker.check(feed)
        #expect(inserted.change == .ends(FeedEndsChange(removedAtStart: 1, insertedAtStart: 3)), "S0 goes; S-1, m-1, D0 come")
        #expect(Array(inserted.prefix(3)) == [.start(-1), .message(-1, "v0"), .day(0)])
    }

    @Test("edits at the end once it is reached: the footer follows its message")
    func editsOfTheFooter() async throws {
        let feed = await messageFeed(clock: clock, at: 9)
        let checker = RowsChecker()
        #expect(checker.check(feed).last == .end(24))
        try await feed.update(id: 99) { $0.day = 30 }
        #expect(checker.check(feed).last == .end(30))
        try await feed.remove(ids: [99])
        #expect(checker.check(feed).last == .end(24))
        try await feed.update(id: 98) { $0.hidden = true }
        checker.check(feed)
        try await feed.remove(ids: Array(90..<98))
        let empty = checker.check(feed)
        #expect(empty.isEmpty, "no kept item: no rows, no footer")
        try await feed.update(id: 98) { $0.hidden = false }
        #expect(Array(checker.check(feed)) == [.message(98, "v0"), .end(24)])
    }

    @Test("a head merge puts the new rows on top; the header is made for the new first message")
    func headMerge() async {
        let firstPages = PageOverrides([0: 10...19])
        let feed = await messageFeed(clock: clock, refreshMode: .mergeAtHead, firstPages: firstPages)
        _ = await feed.loadMore()
        let checker = RowsChecker()
        checker.check(feed)
        firstPages.pages.withLock { $0[0] = 7...16 }
        checker.calls.reset()
        _ = await feed.refresh()
        #expect(feed.currentSnapshot.change == .prepended(0..<3))
        let merged = checker.check(feed)
        #expect(onlyPrepended(merged.change) || { if case .ends(let e) = merged.change { e.removedAtStart == 1 } else { false } }())
        #expect(checker.calls.map == 3)
        #expect(Array(merged.prefix(3)) == [.start(1), .message(7, "v0"), .day(2)])
    }

    @Test("a restored controller's rows are its saved list's, and pages land on them as before")
    func restore() async throws {
        let feed = await messageFeed(clock: clock)
        _ = await feed.loadMore()
        try await feed.update(id: 3) { $0.text = "kept" }
        let state = try #require(try await feed.exportState())
        let source = ScriptedPageSource<Message, Int> { request in
            let page = request.cursor ?? 0
            return .page(Page(items: (page * 10..<page * 10 + 10).map { Message(id: $0) }, previous: page > 0 ? page - 1 : nil, next: page + 1), latency: .zero)
        }
        let restored = MessageFeed(source: source, clock: clock, restoring: state, restorePolicy: .never)
        let checker = RowsChecker()
        let rows = checker.check(restored)
        #expect(rows.change == .replaced && rows.contains(.message(3, "kept")))
        #expect(rows.first == .start(0), "restored at the start of the data")
        _ = await restored.loadMore()
        #expect(onlyAppended(checker.check(restored).change))
    }

    @Test("a reader that skips versions: loads only give the change across them; an edit among them gives replaced")
    func skippedVersions() async throws {
        let feed = await messageFeed(clock: clock)
        let checker = RowsChecker()
        checker.check(feed)
        for _ in 0..<3 { _ = await feed.loadMore() }
        #expect(onlyAppended(checker.check(feed).change))
        try await feed.update(id: 5) { $0.text = "x" }
        _ = await feed.loadMore()
        #expect(checker.check(feed).change == .replaced)
    }

    @Test("without separators the rows are the kept items mapped")
    func noSeparators() async {
        let feed = await messageFeed(clock: clock, hidden: [1, 2, 3])
        let checker = RowsChecker(separators: false)
        let rows = checker.check(feed)
        #expect(rows.count == 7 && rows.first == .message(0, "v0") && rows[1] == .message(4, "v0"))
        _ = await feed.loadMore()
        #expect(checker.check(feed).change == .ends(FeedEndsChange(insertedAtEnd: 10)))
    }

    @Test("feed.rows(…): the first value is the current list's rows, then the newest with its change; it ends when the feed closes")
    func rowsSequence() async {
        let feed = await messageFeed(clock: clock)
        var iterator = feed.rows(ChatTransform.make()).makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.change == .replaced && first?.first == .start(0) && first?.version == feed.currentSnapshot.version)
        _ = await feed.loadMore()
        let second = await iterator.next()
        #expect(second?.version == feed.currentSnapshot.version)
        #expect(second.map { onlyAppended($0.change) } == true)
        #expect(second?.count == first!.count + 12, "10 messages, day rows 3 and 4")
        await feed.close()
        var last: FeedRows<MessageRow>?
        while let rows = await iterator.next() { last = rows }
        #expect(last?.status == .closed)
    }
}
