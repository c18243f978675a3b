import AsyncPaging
import FeedBenchKit

// Edits without refetching (issue 13): one item updated in a feed of 1,000,000 `Identifiable`
// posts with one subscriber, against appending one page (page.posts-ids.engine).

/// A feed of `count` posts (one first page, built before counting) and its subscriber.
final class EditHarness {
    let controller: FeedController<IdentifiedPost, Int>
    var snapshots: AsyncStream<FeedSnapshot<IdentifiedPost>>.Iterator
    let edited: [IdentifiedPost]

    init(count: Int, edits: Int) async {
        let source = PrebuiltSource<IdentifiedPost>(firstPageCount: count, pageCount: 1)
        controller = FeedController(source: source)
        snapshots = controller.snapshots.makeAsyncIterator()
        while let snapshot = await snapshots.next(), snapshot.count < count {}
        // Distinct items spread over the list, each with a new title: every edit adds to the overlay.
        edited = (0..<edits).map { index in
            var post = IdentifiedPost(benchIndex: (index * 7_919) % count)
            post.title = "Edited \(index): a title long enough to live on the heap"
            return post
        }
    }

    func edit(_ index: Int) async {
        _ = try? await controller.update(edited[index])
        _ = await snapshots.next()
    }
}

let editScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "edit.posts-ids.engine.1m", iterations: 200,
        summary: "update(_:) of one Identifiable post in a feed of 1,000,000, 1 subscriber (positions by id already made)"
    ) { edits in
        let harness = await EditHarness(count: 1_000_000, edits: warmupPages + edits)
        for index in 0..<warmupPages { await harness.edit(index) }
        await measured {
            for index in warmupPages..<warmupPages + edits { await harness.edit(index) }
        }
    },
    InstructionScenario(
        name: "edit.posts-ids.engine.1m.first", iterations: 1,
        summary: "the first edit of that feed, which makes the positions by id (O(list), once)"
    ) { _ in
        let harness = await EditHarness(count: 1_000_000, edits: 1)
        await measured { await harness.edit(0) }
    },
]
