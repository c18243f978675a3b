@testable import AsyncPaging
import Testing

/// The item store dropping items at both ends (the memory bound): reads, older views, the
/// change between views, and the release of dropped chunks.
@Suite("Item storage with drops")
struct BoundedStoreTests {
    /// Checks that `change` describes going from `older` to `newer`: the counts fit in the lists,
    /// and the older list without its removed items equals the newer one without its inserted items.
    static func expectDescribes(_ change: FeedChange, from older: [Int], to newer: [Int]) {
        let (removedAtStart, insertedAtStart, insertedAtEnd, removedAtEnd): (Int, Int, Int, Int)
        switch change {
        case .appended(let range):
            #expect(range.upperBound == newer.count)
            (removedAtStart, insertedAtStart, insertedAtEnd, removedAtEnd) = (0, 0, range.count, 0)
        case .prepended(let range):
            #expect(range.lowerBound == 0)
            (removedAtStart, insertedAtStart, insertedAtEnd, removedAtEnd) = (0, range.count, 0, 0)
        case .extended(let prepended, let appended):
            #expect(prepended.lowerBound == 0 && appended.upperBound == newer.count)
            (removedAtStart, insertedAtStart, insertedAtEnd, removedAtEnd) = (0, prepended.count, appended.count, 0)
        case .ends(let ends):
            (removedAtStart, insertedAtStart, insertedAtEnd, removedAtEnd) =
                (ends.removedAtStart, ends.insertedAtStart, ends.insertedAtEnd, ends.removedAtEnd)
        case .initial, .replaced, .updated, .removed, .reloaded:
            Issue.record("a change within one store is never \(change)")
            return
        }
        #expect(removedAtStart + removedAtEnd <= older.count, "\(change) removes more than \(older.count)")
        #expect(insertedAtStart + insertedAtEnd <= newer.count, "\(change) inserts more than \(newer.count)")
        guard removedAtStart + removedAtEnd <= older.count, insertedAtStart + insertedAtEnd <= newer.count else { return }
        let olderMiddle = older[removedAtStart..<(older.count - removedAtEnd)]
        let newerMiddle = newer[insertedAtStart..<(newer.count - insertedAtEnd)]
        #expect(Array(olderMiddle) == Array(newerMiddle), "\(change) from \(older.count) to \(newer.count) items")
        #expect(change.indexShift == insertedAtStart - removedAtStart)
    }

    @Test("random appends, prepends and drops at both ends read back like an array; older views keep their items", arguments: 0..<4)
    func randomOperationsMatchAnArray(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var store = ItemStore<Int>()
        var reference: [Int] = []
        var views: [(ItemStoreContents<Int>, [Int])] = []
        var nextHigh = 0
        var nextLow = -1
        for _ in 0..<300 {
            let size = [1, 7, 20, 33, 100, 700][Int.random(in: 0..<6, using: &random)]
            // Around a bounded feed's size: past 2,000 items, only drops.
            let operation = reference.count > 2_000 ? Int.random(in: 2..<4, using: &random) : Int.random(in: 0..<4, using: &random)
            switch operation {
            case 0:
                let page = Array(nextHigh..<nextHigh + size)
                nextHigh += size
                store.append(contentsOf: page)
                reference += page
            case 1:
                let page = Array((nextLow - size + 1)...nextLow)
                nextLow -= size
                store.prepend(contentsOf: page)
                reference.insert(contentsOf: page, at: 0)
            case 2:
                let count = Int.random(in: 0...Swift.min(size, reference.count), using: &random)
                store.dropFirst(count)
                reference.removeFirst(count)
            default:
                let count = Int.random(in: 0...Swift.min(size, reference.count), using: &random)
                store.dropLast(count)
                reference.removeLast(count)
            }
            let contents = store.contents
            #expect(contents.count == reference.count)
            #expect((0..<contents.count).allSatisfy { contents[$0] == reference[$0] })
            if let (older, olderItems) = views.last {
                Self.expectDescribes(contents.change(since: older), from: olderItems, to: reference)
            }
            if let (oldest, oldestItems) = views.first {
                Self.expectDescribes(contents.change(since: oldest), from: oldestItems, to: reference)
            }
            views.append((contents, reference))
            if views.count > 12 { views.remove(at: Int.random(in: 0..<views.count, using: &random)) }
        }
        for (view, items) in views {
            #expect((0..<view.count).map { view[$0] } == items)
        }
    }

    @Test("a feed scrolled far in either direction keeps only the chunks its live items need")
    func droppedChunksAreReleased() {
        var store = ItemStore<Int>()
        for page in 0..<10_000 {
            store.append(contentsOf: Array(page * 20..<page * 20 + 20))
            if store.count > 1_000 { store.dropFirst(20) }
        }
        #expect(store.count == 1_000)
        #expect(store.contents[999] == 199_999)
        #expect(store.back.table.map { $0.header.used } ?? 0 <= 2, "one or two chunks of 4,096 hold 1,000 items")
        #expect(store.front.table == nil)
        // And back up: the prepended run takes the items; the back run empties and is freed.
        for page in 0..<10_000 {
            store.prepend(contentsOf: Array(-(page + 1) * 20 ..< -page * 20))
            if store.count > 1_000 { store.dropLast(20) }
        }
        #expect(store.count == 1_000)
        #expect(store.contents[0] == -200_000)
        #expect(store.front.table.map { $0.header.used } ?? 0 <= 2)
        #expect(store.back.table == nil)
    }

    @Test("items dropped are released with the last view that holds them")
    func droppedItemsAreReleasedWithTheirViews() {
        final class Tracked: Sendable {}
        weak var first: Tracked?
        var store = ItemStore<Tracked>()
        do {
            let item = Tracked()
            first = item
            store.append(contentsOf: [item])
        }
        var view: ItemStoreContents<Tracked>? = store.contents
        store.append(contentsOf: (0..<10_000).map { _ in Tracked() })
        store.dropFirst(9_000) // its chunk goes: the first chunks are wholly dropped
        #expect(first != nil, "an older view still reads it")
        view = nil
        #expect(view == nil && first == nil)
    }

    @Test("writing after a drop at the growing end never changes what an older view reads")
    func writesAfterADropAtTheGrowingEndLeaveOlderViews() {
        var store = ItemStore<Int>()
        store.append(contentsOf: Array(0..<100))
        let before = store.contents
        store.dropLast(30)
        store.append(contentsOf: Array(1_000..<1_050))
        #expect((0..<100).map { before[$0] } == Array(0..<100))
        let after = store.contents
        #expect((0..<after.count).map { after[$0] } == Array(0..<70) + Array(1_000..<1_050))
        Self.expectDescribes(after.change(since: before), from: Array(0..<100), to: Array(0..<70) + Array(1_000..<1_050))
        #expect(after.change(since: before) == .ends(FeedEndsChange(insertedAtEnd: 50, removedAtEnd: 30)))
    }
}
