import AsyncPaging
import AsyncPagingUI
import FeedBenchKit

/// The engine as an app makes it for `Identifiable` posts: `FeedController<IdentifiedPost, Int>`
/// through its `Identifiable` initializer, so duplicates are dropped by id (the default), with
/// one subscriber that receives every page before the next starts (as scenario 1).
final class IdentifiedEngineHarness: AppendHarness {
    let controller: FeedController<IdentifiedPost, Int>
    var snapshots: AsyncStream<FeedSnapshot<IdentifiedPost>>.Iterator
    private(set) var receivedCount = 0

    init(source: some PageSource<IdentifiedPost, Int>, firstPageCount: Int, configuration: FeedConfiguration = .default) async {
        controller = FeedController(source: source, configuration: configuration)
        snapshots = controller.snapshots.makeAsyncIterator()
        while receivedCount < firstPageCount, let snapshot = await snapshots.next() {
            receivedCount = snapshot.count
        }
    }

    func appendPage() async {
        await controller.loadMore()
        receivedCount = await snapshots.next()?.count ?? -1
    }
}

/// The configuration of the benchmarks' engine with duplicates kept: no id index at all.
let keepingDuplicates: FeedConfiguration = {
    do { return try FeedConfiguration(duplicates: .keep) } catch { fatalError("valid: \(error)") }
}()

/// The default configuration without the initial load (the scenario starts it).
let withoutInitialLoad: FeedConfiguration = {
    do { return try FeedConfiguration(loadsInitialPage: false) } catch { fatalError("valid: \(error)") }
}()
