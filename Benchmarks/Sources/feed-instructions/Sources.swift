import AsyncPaging
import FeedBenchKit

/// A source whose every page holds new items: page `n` (cursor `n`, from 1) holds the items
/// after the first page, 20 at a time, so that a feed with ids grows page by page. The pages
/// are built before the measurement, so what is counted is what the feed does with them.
///
/// With `suspends`, it suspends once per page before answering (`Task.yield()`: the fetch
/// task goes back to the executor and is resumed by it), as a source that waits for the
/// network always does; otherwise it answers at once.
struct PrebuiltSource<Item: BenchItem>: PageSource {
    let firstPage: [Item]
    let pages: [[Item]]
    let suspends: Bool

    init(firstPageCount: Int, pageCount: Int, suspends: Bool = false) {
        firstPage = makeItems(firstPageCount)
        pages = (0..<pageCount).map { makeItems(benchPageSize, startingAt: firstPageCount + $0 * benchPageSize) }
        self.suspends = suspends
    }

    func page(for request: PageRequest<Int>) async throws -> Page<Item, Int> {
        if suspends { await Task.yield() }
        guard let cursor = request.cursor else { return Page(items: firstPage, next: 1) }
        let index = (cursor - 1) % pages.count // wraps around only past its pages (then all duplicates)
        return Page(items: pages[index], next: cursor + 1)
    }
}
