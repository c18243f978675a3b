@testable import AsyncPaging
import Testing

@Suite("Item storage")
struct ItemStoreTests {
    @Test("items read back in order across chunk boundaries", arguments: [1, 7, 20, 31, 32, 33, 100, 4_096, 8_191, 8_192, 20_000])
    func appendAndRead(pageSize: Int) {
        var store = ItemStore<Int>()
        var expected: [Int] = []
        var next = 0
        while next < 20_000 {
            let page = Array(next..<min(next + pageSize, 20_000))
            store.append(contentsOf: page)
            expected += page
            next += pageSize
        }
        let contents = store.contents
        #expect(contents.count == 20_000)
        #expect((0..<contents.count).allSatisfy { contents[$0] == expected[$0] })
    }

    @Test("prepended pages read back in order before the appended ones, across chunk boundaries", arguments: [1, 7, 32, 33, 4_097])
    func prependAndAppendRead(pageSize: Int) {
        var store = ItemStore<Int>()
        store.append(contentsOf: Array(10_000..<10_000 + pageSize))
        var first = 10_000
        var snapshots: [(ItemStoreContents<Int>, ClosedRange<Int>)] = []
        while first > 0 {
            let page = Array(max(first - pageSize, 0)..<first)
            store.prepend(contentsOf: page)
            first = page.first!
            snapshots.append((store.contents, first...(10_000 + pageSize - 1)))
        }
        store.append(contentsOf: Array(10_000 + pageSize..<10_000 + 2 * pageSize))
        let contents = store.contents
        #expect(contents.count == 10_000 + 2 * pageSize)
        #expect((0..<contents.count).allSatisfy { contents[$0] == $0 })
        for (view, range) in snapshots.suffix(3) { // older views keep exactly what they had
            #expect(view.count == range.count)
            #expect((0..<view.count).allSatisfy { view[$0] == range.lowerBound + $0 })
        }
    }

    @Test("a stretch of the list copies out in order, from both runs and across chunks (an export)", arguments: [1, 20, 33, 4_097])
    func copiesStretches(pageSize: Int) {
        var store = ItemStore<Int>()
        var first = 12_000
        var last = 12_000
        // Prepended and appended pages, and a first page dropped partly (the runs start mid-chunk).
        for round in 0..<40 {
            if round.isMultiple(of: 3) {
                store.prepend(contentsOf: Array(first - pageSize..<first))
                first -= pageSize
            } else {
                store.append(contentsOf: Array(last..<last + pageSize))
                last += pageSize
            }
        }
        store.dropFirst(Swift.min(5, store.count))
        first += Swift.min(5, last - first)
        let contents = store.contents
        let expected = Array(first..<last)
        #expect((0..<contents.count).map { contents[$0] } == expected)
        let bounds = [0, 1, contents.count / 3, contents.frontCount, contents.frontCount + 1, contents.count - 1, contents.count]
        for lower in bounds where lower >= 0 && lower <= contents.count {
            for upper in bounds where upper >= lower && upper <= contents.count {
                var items = [-1]
                contents._append(lower..<upper, to: &items)
                #expect(items == [-1] + expected[lower..<upper], "\(lower)..<\(upper)")
            }
        }
    }

    @Test func chunkLayoutCoversEveryIndexOnce() {
        var previous = (chunk: 0, offset: -1)
        for index in 0..<40_000 {
            let location = ChunkLayout.locate(index)
            if location.chunk == previous.chunk {
                #expect(location.offset == previous.offset + 1)
            } else {
                #expect(location.chunk == previous.chunk + 1)
                #expect(previous.offset == ChunkLayout.capacity(ofChunk: previous.chunk) - 1)
                #expect(location.offset == 0)
            }
            previous = location
        }
    }

    @Test func oldSnapshotsKeepTheirItemsAsTheStoreGrows() {
        var store = ItemStore<String>()
        store.append(contentsOf: ["a", "b"])
        let early = FeedSnapshot(version: 1, generation: 1, change: .replaced, contents: store.contents)
        store.append(contentsOf: (0..<10_000).map { "item \($0)" })
        #expect(Array(early) == ["a", "b"])
        let late = FeedSnapshot(version: 2, generation: 1, change: .appended(2..<10_002), contents: store.contents)
        #expect(late.count == 10_002)
        #expect(late[10_001] == "item 9999")
        #expect(late.change(since: early) == .appended(2..<10_002))
    }

    @Test("the first chunk holds only the first page, and grows without changing what older views read", arguments: [1, 20])
    func firstChunkGrowsOnce(firstPage: Int) throws {
        final class Tracked: Sendable {
            let value: Int
            init(_ value: Int) { self.value = value }
        }
        weak var first: Tracked?
        do {
            var store = ItemStore<Tracked>()
            let items = (0..<firstPage).map(Tracked.init)
            first = items[0]
            store.append(contentsOf: items)
            let early = store.contents
            let table = try #require(early.back)
            let firstChunk = table.withUnsafeMutablePointerToElements { $0[0] }
            #expect(firstChunk.capacity < ChunkLayout.capacity(ofChunk: 0)) // not the layout's 32
            #expect(firstChunk.capacity >= firstPage)
            store.append(contentsOf: (firstPage..<firstPage + 40).map(Tracked.init)) // overflows it
            let late = store.contents
            let grownTable = try #require(late.back)
            #expect(grownTable !== table) // a new table: the early view's is unchanged
            #expect(grownTable.withUnsafeMutablePointerToElements { $0[0] }.capacity >= ChunkLayout.capacity(ofChunk: 0))
            #expect(early.count == firstPage)
            #expect((0..<early.count).allSatisfy { early[$0].value == $0 })
            #expect(late.count == firstPage + 40)
            #expect((0..<late.count).allSatisfy { late[$0].value == $0 })
            store.prepend(contentsOf: (-5..<0).map(Tracked.init)) // the front run's first chunk
            store.prepend(contentsOf: (-45..<(-5)).map(Tracked.init))
            let both = store.contents
            #expect((0..<both.count).allSatisfy { both[$0].value == $0 - 45 })
        }
        #expect(first == nil) // both chunks released: the copy holds its own references
    }

    @Test func itemsAreReleasedWithTheirLastSnapshot() {
        final class Tracked: Sendable {}
        weak var watched: Tracked?
        do {
            var store = ItemStore<Tracked>()
            let item = Tracked()
            watched = item
            store.append(contentsOf: [item])
        }
        #expect(watched == nil)
    }
}
