import AsyncPaging
import FeedBenchKit

// Edits without refetching (issues 13 and 24): one item updated in a feed of 1,000,000
// `Identifiable` posts with one subscriber, against appending one page to that feed
// (edit.posts-ids.engine.1m.page-before): the first edit, later ones, those past the 1,024th
// distinct edit, a page after edits, and edits of a feed given its ids by key path.

/// A feed of `count` posts (one first page, built before counting) and its subscriber.
final class EditHarness {
    let controller: FeedController<IdentifiedPost, Int>
    var snapshots: AsyncStream<FeedSnapshot<IdentifiedPost>>.Iterator
    let edited: [IdentifiedPost]

    /// With `byKeyPath`, the feed is given its ids by key path (`id: \.id`) instead of using
    /// `Identifiable`: the duplicate filter then calls the key path's closure.
    init(count: Int, edits: Int, pages: Int = 1, byKeyPath: Bool = false) async {
        let source = PrebuiltSource<IdentifiedPost>(firstPageCount: count, pageCount: pages)
        controller = byKeyPath ? FeedController(source: source, id: \.id) : FeedController(source: source)
        snapshots = controller.snapshots.makeAsyncIterator()
        while let snapshot = await snapshots.next(), snapshot.count < count {}
        // Distinct items spread over the list, each with a new title: every edit adds to the overlay.
        edited = (0..<edits).map { index in
            var post = IdentifiedPost(benchIndex: (index * 7_919) % count)
            post.title = "Edited \(index): a title long enough to live on the heap"
            return post
        }
    }

    /// Appends one page (a load-more) and waits for its snapshot.
    func appendPage() async {
        _ = await controller.loadMore()
        _ = await snapshots.next()
    }

    func edit(_ index: Int) async {
        _ = try? await controller.update(edited[index])
        _ = await snapshots.next()
    }
}

let editScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "edit.posts-ids.engine.1m", iterations: 200,
        summary: "update(_:) of one Identifiable post in a feed of 1,000,000, 1 subscriber (after 20 edits)"
    ) { edits in
        let harness = await EditHarness(count: 1_000_000, edits: warmupPages + edits)
        for index in 0..<warmupPages { await harness.edit(index) }
        await measured {
            for index in warmupPages..<warmupPages + edits { await harness.edit(index) }
        }
    },
    InstructionScenario(
        name: "edit.posts-ids.engine.1m.first", iterations: 1,
        summary: "the first edit of that feed (found through the duplicate filter: no table to make)"
    ) { _ in
        let harness = await EditHarness(count: 1_000_000, edits: 1)
        await measured { await harness.edit(0) }
    },
    InstructionScenario(
        name: "edit.posts-ids.engine.1m.first.second-feed", iterations: 1,
        summary: "the first edit of a second such feed, in a process that edited one before (no first-use costs of the process)"
    ) { _ in
        let earlier = await EditHarness(count: 1_000_000, edits: 1)
        await earlier.edit(0)
        let harness = await EditHarness(count: 1_000_000, edits: 1)
        await measured { await harness.edit(0) }
        _ = earlier
    },
    InstructionScenario(
        name: "edit.posts-keypath.engine.1m", iterations: 200,
        summary: "update(_:) of one post in a feed of 1,000,000 given its ids by key path (id: \\.id)"
    ) { edits in
        let harness = await EditHarness(count: 1_000_000, edits: warmupPages + edits, byKeyPath: true)
        for index in 0..<warmupPages { await harness.edit(index) }
        await measured {
            for index in warmupPages..<warmupPages + edits { await harness.edit(index) }
        }
    },
    InstructionScenario(
        name: "edit.posts-ids.engine.1m.past-1024", iterations: 100,
        summary: "edits 1,000..<1,100 of that feed (distinct items): the 1,024th and those after it"
    ) { edits in
        let harness = await EditHarness(count: 1_000_000, edits: 1_000 + edits)
        for index in 0..<1_000 { await harness.edit(index) }
        await measured {
            for index in 1_000..<1_000 + edits { await harness.edit(index) }
        }
    },
    InstructionScenario(
        name: "edit.posts-ids.engine.1m.page-after", iterations: 200,
        summary: "a page of 20 appended to that feed after 100 edits (against edit.posts-ids.engine.1m.page-before)"
    ) { pages in
        let harness = await EditHarness(count: 1_000_000, edits: 100, pages: warmupPages + pages)
        for index in 0..<100 { await harness.edit(index) }
        for _ in 0..<warmupPages { await harness.appendPage() }
        await measured {
            for _ in 0..<pages { await harness.appendPage() }
        }
    },
    InstructionScenario(
        name: "edit.posts-ids.engine.1m.page-before", iterations: 200,
        summary: "a page of 20 appended to that feed without edits"
    ) { pages in
        let harness = await EditHarness(count: 1_000_000, edits: 0, pages: warmupPages + pages)
        for _ in 0..<warmupPages { await harness.appendPage() }
        await measured {
            for _ in 0..<pages { await harness.appendPage() }
        }
    },
]
