import AsyncPaging
import FeedBenchKit

// Transforms as pages land (issue 26, item 2): a page of 20 posts landing on a feed whose
// reader brings a ``FeedRowsTransformer`` up to each update, against the same page without a
// transform, and the bare cost of the transform's functions over a page's posts. The target: a
// transform's cost per page ≤ its functions' own cost + 10% of a page.

/// A screen's row of a post: the post, or a group row between posts of different groups.
enum PostRow: Sendable {
    case post(id: Int, title: String)
    case group(Int)
}

/// The transform the figures run: one post in ten filtered out, a group row every 50 ids (so
/// separators fall inside pages and across their boundaries), each post mapped to its row.
let benchTransform = FeedTransform<IdentifiedPost, PostRow>(
    filter: { $0.id % 10 != 9 },
    separator: { before, after in
        guard let before, let after else { return nil }
        return before.id / 50 != after.id / 50 ? .group(after.id / 50) : nil
    },
    map: { .post(id: $0.id, title: $0.title) })

/// What the loops compute, so that nothing is optimized away.
nonisolated(unsafe) var transformSink = 0 // written by one task at a time: the scenario's own

/// A feed of 1,000 posts that appends pages of 20; the reader takes each page's update and,
/// with a transformer, brings the rows up to it (what an iteration of ``FeedRowsSequence``
/// does after its wake-up).
final class TransformHarness {
    let controller: FeedController<IdentifiedPost, Int>
    let transformer: FeedRowsTransformer<IdentifiedPost, PostRow>?

    init(source: some PageSource<IdentifiedPost, Int>, transforms: Bool) async {
        controller = FeedController(source: source, configuration: withoutInitialLoad)
        transformer = transforms ? FeedRowsTransformer(benchTransform) : nil
        await controller.refresh()
        takeUpdate()
    }

    func takeUpdate() {
        let update = FeedUpdate(
            snapshot: controller.currentSnapshot, status: controller.currentStatus, loadStates: controller.currentLoadStates)
        if let transformer {
            transformSink &+= transformer.apply(update).count
        } else {
            transformSink &+= update.snapshot.count
        }
    }

    func appendPage() async {
        await controller.loadMore()
        takeUpdate()
    }
}

func transformPages(_ pages: Int, transforms: Bool) async {
    let source = PrebuiltSource<IdentifiedPost>(firstPageCount: 1_000, pageCount: warmupPages + pages)
    let harness = await TransformHarness(source: source, transforms: transforms)
    for _ in 0..<warmupPages { await harness.appendPage() }
    await measured {
        for _ in 0..<pages { await harness.appendPage() }
    }
}

/// The transform's functions over a page of 20 posts, as the transformer calls them (through
/// the transform's closures): the filter for each post, the separator with the kept post before,
/// the map for each kept post.
func transformFunctions(_ pages: Int) async {
    let posts = makeItems(20 * (pages + 1), of: IdentifiedPost.self)
    await measured {
        var previous: IdentifiedPost? = nil
        let filter = benchTransform.filter!
        let separator = benchTransform.separator!
        let map = benchTransform.map
        var made = 0
        for post in posts.dropFirst(20) {
            guard filter(post) else { continue }
            if let before = previous, separator(before, post) != nil { made &+= 1 }
            if case .post(let id, _) = map(post) { made &+= id }
            previous = post
        }
        transformSink &+= made
    }
}

let transformScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "transform.page.plain", iterations: 200,
        summary: "page of 20 Identifiable posts at 1k, the reader takes the update (no transform): the baseline"
    ) { await transformPages($0, transforms: false) },
    InstructionScenario(
        name: "transform.page.rows", iterations: 200,
        summary: "the same page, the reader brings a FeedRowsTransformer (filter, group separators, map) up to it"
    ) { await transformPages($0, transforms: true) },
    InstructionScenario(
        name: "transform.functions", iterations: 200,
        summary: "the transform's own functions over a page of 20 posts (filter, separator, map through its closures)"
    ) { await transformFunctions($0) },
]
