// The time and instructions from start to the first list read from the database, with no
// network (Benchmarks/README.md; first-list.sh runs it).
//
//   offline-first-list seed PATH ROWS    store ROWS rows in a new database at PATH
//   offline-first-list [--warm] PATH     open PATH, show the stored list (20 rows), print
//                                        "rows N nanoseconds T" (--warm: after doing it once)
//
// The measured span starts before the database is opened and ends when the first list is
// published: opening SQLite and checking the schema, the mediator's initialize() (it counts
// the stored rows and skips the network), the controller, and the first page read. Under
// callgrind only that span is counted (client requests: instrumentation starts and stops
// around it).
import AsyncPaging
import CCallgrind
import Foundation
import OfflineFeedKit

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "seed", let count = Int(arguments[3]) {
    let database = try FeedDatabase(path: arguments[2])
    let items = (0..<count).map { NetworkPost(id: count - $0, title: "item \(count - $0)") }
    try await database.storeRefresh(items, next: "1")
    print("stored \(try await database.count()) rows in \(arguments[2])")
    exit(0)
}
let warm = arguments.count == 3 && arguments[1] == "--warm"
guard arguments.count == 2 || warm else {
    print("usage: offline-first-list seed PATH ROWS | offline-first-list [--warm] PATH")
    exit(2)
}
let path = arguments[arguments.count - 1]
// Nothing listens on port 9: no network answer is possible (and none is asked for).
let noNetwork = URL(string: "http://127.0.0.1:9/cursor")!

/// Opens the database and the feed and shows the stored list: the measured span.
func openAndShow() async throws -> OfflineFeed {
    let database = try FeedDatabase(path: path)
    let mediator = HTTPRemoteMediator(database: database, url: noNetwork, initialActionWhenStored: .skipInitialRefresh)
    let feed = try await OfflineFeed.open(database: database, mediator: mediator, pageSize: 20)
    let first = await feed.showStored()
    guard case .completed = first.outcome, feed.controller.currentSnapshot.count > 0 else {
        print("offline-first-list: no stored list (\(first.outcome))")
        exit(1)
    }
    return feed
}

// --warm: the same span once before, unmeasured (the runtime's first-use costs paid, the
// database file in the page cache): what a second feed opened in one process costs.
if warm { try await openAndShow().close() }
callgrind_zero_stats()
callgrind_start_instrumentation()
let start = ContinuousClock.now
let feed = try await openAndShow()
let elapsed = ContinuousClock.now - start
callgrind_stop_instrumentation()

let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
print("rows \(feed.controller.currentSnapshot.count) nanoseconds \(nanoseconds)")
await feed.close()
