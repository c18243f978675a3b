import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Testing

/// ``FeedModel/rows(_:)``: the model's list through a ``FeedRowsTransformer``, on the test clock.
@Suite("FeedModel rows") @MainActor
struct FeedModelRowsTests {
    /// Even items as "e<n>", a "|" between tens, a "top" header at the start of the data.
    static let transform = FeedTransform<Int, String>(
        filter: { $0 % 2 == 0 },
        separator: { before, after in
            guard let after else { return nil }
            guard let before else { return "top" }
            return before / 10 != after / 10 ? "|" : nil
        },
        map: { "e\($0)" })

    @Test("the rows follow the model's list: a page adds its rows at the end, an unchanged list reads as unchanged")
    func rowsFollowTheModel() async {
        let (feed, _, _) = makeController(page(0..<15, next: 1, latency: .zero), page(15..<30, next: 2, latency: .zero))
        let model = FeedModel(controller: feed)
        await waitUntil { model.items.count == 15 && model.status == .idle }
        let transformer = FeedRowsTransformer(Self.transform)
        let first = model.rows(transformer)
        #expect(Array(first) == ["top", "e0", "e2", "e4", "e6", "e8", "|", "e10", "e12", "e14"])
        #expect(model.rows(transformer).change == .unchanged, "read again: nothing to do")
        await model.loadMore()
        let second = model.rows(transformer)
        #expect(second.change == .ends(FeedEndsChange(insertedAtEnd: 8)))
        #expect(Array(second.suffix(8)) == ["e16", "e18", "|", "e20", "e22", "e24", "e26", "e28"])
        #expect(Array(second) == Self.transform.rows(of: model.items, startReached: true, endReached: false))
    }
}
