import AsyncPaging
import CHeapBytes
import FeedServiceApp

// The heap of an idle FeedService session with its first page: `SESSIONS` sessions (10,000 by
// default) opened the way `GET /sessions/:id/items` opens one — `FeedSessions.withSession`
// through the registry, the controller over the in-process fake API with the service's own
// options (`makeSessions(options:)`), its first page of 20 waited for — then left idle. Prints
// the heap in use (glibc `mallinfo2().uordblks`, chunk headers included) before and after, per
// session; then, to say what the bytes are, the same for the parts alone: a controller made as
// the service makes it, with its first page, without the registry; a bare controller with no
// page; the 20 items of a page as one array.
//
//   MALLOC_ARENA_MAX=1 MALLOC_MMAP_MAX_=0 .build-release/release/SessionHeap [SESSIONS]
let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 10_000

func report(_ what: String, from before: Int) {
    let after = heap_bytes_in_use()
    let perSession = Double(Int(after) - before) / Double(count)
    print("\(what): heap \(before) -> \(after) B, \(String(format: "%.1f", perSession)) B each")
}

var options = ServiceOptions()
options.totalItems = 1_000
options.maximumSessions = count + 1
let sessions = try makeSessions(options: options)
// Warm up: one session made and removed, so one-time allocations (metadata, the registry's
// first storage) are not counted per session.
_ = try await sessions.withSession(SessionID(validating: "warm-up")) { await $0.waitForFirstPage() }
_ = try await sessions.remove(SessionID(validating: "warm-up"))
let ids = try (0..<count).map { try SessionID(validating: "session-\($0)") }
var items = 0
var before = Int(heap_bytes_in_use())
for id in ids {
    items += try await sessions.withSession(id) { feed in
    _ = await feed.waitForFirstPage()
        return feed.currentSnapshot.count
    }
}
report("\(count) idle FeedService sessions, first page each (FeedSessions.withSession)", from: before)
print("  (\(await sessions.openCount) open, \(items / max(1, count)) items each)")

// The parts alone.
let configuration = try FeedConfiguration(
    pageSize: 20, retry: RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(200), maximumBackoff: .seconds(5)),
    timeout: .seconds(10))
let source = FakeFeedAPI(totalItems: 1_000)
let clock = ContinuousClock()
var controllers: [FeedController<FeedItem, String>] = []
controllers.reserveCapacity(count)
before = Int(heap_bytes_in_use())
for _ in 0..<count {
    let feed = FeedController(
        source: source, clock: clock, configuration: configuration,
        restoring: nil, restorePolicy: .never, id: \.id)
    _ = await feed.waitForFirstPage()
    controllers.append(feed)
}
report("\(count) controllers as the service makes them, first page each, no registry", from: before)
var bare: [FeedController<FeedItem, String>] = []
bare.reserveCapacity(count)
before = Int(heap_bytes_in_use())
for _ in 0..<count {
    let feed = FeedController(
        source: source, clock: clock, configuration: configuration,
        restoring: nil, restorePolicy: .never, id: \.id)
    await feed.close()
    bare.append(feed)
}
report("\(count) controllers made the same way, closed before any page (no page, no load task)", from: before)
var pages: [[FeedItem]] = []
pages.reserveCapacity(count)
before = Int(heap_bytes_in_use())
for _ in 0..<count {
    pages.append(try await source.page(for: PageRequest(cursor: nil, side: .refresh, pageSize: 20, clock: clock)).items)
}
report("\(count) arrays of a page's 20 items", from: before)
withExtendedLifetime((sessions, controllers, bare, pages)) {}
