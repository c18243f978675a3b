import AsyncPaging
import FeedBenchKit

// The memory bound (issue 13): an endless scroll with `maximumItems: 1_000`. The cost of a
// page and the memory must not depend on how far the feed has scrolled: the figures compare a
// feed scrolled to 100,000 items with one scrolled to 10,000,000, side by side in one run.

/// The bound of the scenarios.
let scrollBound = 1_000

/// An endless source whose cursor is the position of a page's first item. Pages before
/// `smallPagesFrom` hold 1,000 items (they carry the feed far fast, uncounted); pages from there
/// hold 20. Every page names the page before it (the bound drops pages at the start only when
/// it can load them again). Items are made when asked, except the pages listed in `prebuilt`
/// (the counted ones: making items is the source's work, not the engine's).
struct EndlessSource<Item: BenchItem>: PageSource {
    let smallPagesFrom: Int
    let prebuilt: [Int: [Item]]

    init(smallPagesFrom: Int, prebuiltPages: Range<Int>) {
        self.smallPagesFrom = smallPagesFrom
        var prebuilt: [Int: [Item]] = [:]
        for index in prebuiltPages {
            let position = smallPagesFrom + index * benchPageSize
            prebuilt[position] = makeItems(benchPageSize, startingAt: position)
        }
        self.prebuilt = prebuilt
    }

    func size(at position: Int) -> Int { position < smallPagesFrom ? 1_000 : benchPageSize }

    func page(for request: PageRequest<Int>) async throws -> Page<Item, Int> {
        let position = request.cursor ?? 0
        let size = size(at: position)
        let items = prebuilt[position] ?? makeItems(size, startingAt: position)
        let previous = position == 0 ? nil : position - (position <= smallPagesFrom ? 1_000 : benchPageSize)
        return Page(items: items, previous: previous, next: position + size)
    }
}

/// The configuration of the bounded scenarios: the defaults and a bound of 1,000 items.
let boundedConfiguration: FeedConfiguration = {
    do { return try FeedConfiguration(maximumItems: scrollBound) } catch { fatalError("valid: \(error)") }
}()

/// A bounded controller of `source` whose items have ids: `Identifiable` posts by their `id`,
/// two-word items by their `id` field.
func boundedController(_ source: EndlessSource<IdentifiedPost>) -> FeedController<IdentifiedPost, Int> {
    FeedController(source: source, configuration: boundedConfiguration)
}

func boundedController(_ source: EndlessSource<FeedItem>) -> FeedController<FeedItem, Int> {
    FeedController(source: source, configuration: boundedConfiguration, id: { $0.id })
}

/// Scrolls a bounded feed to `position` (pages of 1,000, uncounted), fills the bound with pages
/// of 20, then counts `pages` pages of 20 items with ids, each dropping a page of 20 at the
/// start, with one subscriber.
func boundedScroll<Item: BenchItem>(
    to position: Int, pages: Int, _ makeController: (EndlessSource<Item>) -> FeedController<Item, Int>
) async {
    let fill = scrollBound / benchPageSize + warmupPages
    let source = EndlessSource<Item>(smallPagesFrom: position, prebuiltPages: fill..<fill + pages)
    let controller = makeController(source)
    var snapshots = controller.snapshots.makeAsyncIterator()
    while let snapshot = await snapshots.next(), snapshot.count == 0 {}
    while await controller.cursors.next ?? 0 < position { await controller.loadMore() }
    for _ in 0..<fill { await controller.loadMore() }
    while let snapshot = await snapshots.next(), snapshot.count < scrollBound {} // the subscriber catches up
    precondition(controller.currentSnapshot.count == scrollBound)
    await measured {
        for _ in 0..<pages {
            await controller.loadMore()
            _ = await snapshots.next()
        }
    }
    precondition(controller.currentSnapshot.count == scrollBound)
}

let boundedScenarios: [InstructionScenario] = [
    InstructionScenario(
        name: "bounded.posts-ids.engine.at-100k", iterations: 200,
        summary: "page of 20 Identifiable posts, bound 1,000 (each page drops one at the start), scrolled to 100,000"
    ) { await boundedScroll(to: 100_000, pages: $0, boundedController as (EndlessSource<IdentifiedPost>) -> FeedController<IdentifiedPost, Int>) },
    InstructionScenario(
        name: "bounded.two-word-ids.engine.at-100k", iterations: 200,
        summary: "page of 20 two-word items with ids (an id closure), bound 1,000, scrolled to 100,000"
    ) { await boundedScroll(to: 100_000, pages: $0, boundedController as (EndlessSource<FeedItem>) -> FeedController<FeedItem, Int>) },
    InstructionScenario(
        name: "bounded.two-word-ids.engine.at-10m", iterations: 200,
        summary: "the same scrolled to 10,000,000 items"
    ) { await boundedScroll(to: 10_000_000, pages: $0, boundedController as (EndlessSource<FeedItem>) -> FeedController<FeedItem, Int>) },
]

/// Heap bytes of a bounded feed (two-word items with ids, bound 1,000, one page of 20 after
/// another) scrolled to 100,000 and to 10,000,000 items, and their ratio.
func boundedBytesFigures(quick: Bool) async {
    var bytes: [Int: Double] = [:]
    for position in [100_000, quick ? 1_000_000 : 10_000_000] {
        let before = heapBytes()
        let source = EndlessSource<FeedItem>(smallPagesFrom: position, prebuiltPages: 0..<0)
        let controller: FeedController<FeedItem, Int> = boundedController(source)
        await controller.refresh()
        while await controller.cursors.next ?? 0 < position + scrollBound * 2 { await controller.loadMore() }
        precondition(controller.currentSnapshot.count == scrollBound)
        bytes[position] = heapBytes() - before
        withExtendedLifetime(controller) {}
    }
    emit("bounded-1000.at-100k.bytes", bytes[100_000] ?? .nan)
    emit("bounded-1000.at-10m.bytes", bytes[quick ? 1_000_000 : 10_000_000] ?? .nan)
    emit("bounded-1000.10m-over-100k", (bytes[quick ? 1_000_000 : 10_000_000] ?? .nan) / (bytes[100_000] ?? .nan))
}
