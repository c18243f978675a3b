// offline-feed: opens the feed's database, shows the stored list before any network answer,
// then refreshes from the network and loads more at the end, printing each step.
//
//   swift run offline-feed --db /tmp/feed.sqlite --url http://127.0.0.1:PORT/cursor [--more N]
//
// Without --url (or with the server down) the network fails: the stored list stays, and the
// failing side is printed from the feed's load states.
import AsyncPaging
import Foundation
import OfflineFeedKit

func value(of option: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func describe(_ list: FeedSnapshot<Post>) -> String {
    let titles = list.prefix(3).map(\.title).joined(separator: ", ")
    return "\(list.count) rows" + (list.isEmpty ? "" : ": \(titles)\(list.count > 3 ? ", …" : "")")
}

let path = value(of: "--db") ?? FileManager.default.temporaryDirectory.appendingPathComponent("offline-feed.sqlite").path
// Port 9 (discard) on loopback: nothing listens, so the network fails at once.
let url = URL(string: value(of: "--url") ?? "http://127.0.0.1:9/cursor")!
let more = Int(value(of: "--more") ?? "1") ?? 1
let started = ContinuousClock.now

do {
    let database = try FeedDatabase(path: path)
    let mediator = HTTPRemoteMediator(database: database, url: url, pageSize: 10)
    let feed = try await OfflineFeed.open(database: database, mediator: mediator, pageSize: 10)
    print("database: \(path)")
    print("network: \(url.absoluteString) (start: \(feed.initialAction == .launchInitialRefresh ? "refresh" : "no refresh"))")

    let start = await feed.start()
    print("stored list: \(describe(feed.controller.currentSnapshot)) (\(start.stored.outcome), \(ContinuousClock.now - started) after start)")
    if let network = start.network {
        print("network refresh: \(network.outcome)")
        print("list: \(describe(feed.controller.currentSnapshot))")
    }
    for _ in 0..<more {
        let result = await feed.loadMore()
        print("load more: \(result.outcome) -> \(describe(feed.controller.currentSnapshot))")
    }
    if let first = feed.controller.currentSnapshot.first {
        try await database.rename(id: first.id, title: first.title + " (read)")
        // The write invalidates the list; wait until the reload shows it.
        for await snapshot in feed.controller.snapshots where snapshot.first?.title.hasSuffix("(read)") == true {
            print("after a local write: \(describe(snapshot))")
            break
        }
    }
    let states = feed.controller.currentLoadStates
    print("load states: \(states)")
    print("network states: \(await feed.accessor.states)")
    await feed.close()
} catch {
    print("offline-feed: \(error)")
    exit(1)
}
