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

/// A value's text, cut at 100 characters (a transport error's text is long).
func short(_ value: some CustomStringConvertible) -> String {
    let text = value.description
    return text.count > 100 ? String(text.prefix(100)) + "…" : text
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

    let stored = await feed.showStored()
    print("stored list: \(describe(feed.controller.currentSnapshot)) (\(stored.outcome), \(ContinuousClock.now - started) after start)")
    if let network = await feed.refreshIfLaunched() {
        print("network refresh: \(short(network.outcome))")
        print("list: \(describe(feed.controller.currentSnapshot))")
        print("load states: \(short(feed.controller.currentLoadStates))")
    }
    for _ in 0..<more {
        let result = await feed.loadMore()
        print("load more: \(short(result.outcome)) -> \(describe(feed.controller.currentSnapshot))")
    }
    // The rows on screen: 12-15 (or the first rows of a shorter list). A local write then
    // reloads the page holding row 12 from the database, and says where its item went.
    let list = feed.controller.currentSnapshot
    if !list.isEmpty {
        let anchor = min(12, list.count - 1)
        feed.controller.reportVisibleRows(anchor..<min(anchor + 4, list.count))
        let row = list[anchor]
        let title = row.title + " *"
        try await database.rename(id: row.id, title: title)
        for await snapshot in feed.controller.snapshots where snapshot.contains(where: { $0.title == title }) {
            print("after a local write to row \(anchor): \(describe(snapshot)) (\(snapshot.change))")
            break
        }
    }
    print("load states: \(short(feed.controller.currentLoadStates))")
    print("network states: \(short(await feed.accessor.states))")
    await feed.close()
} catch {
    print("offline-feed: \(error)")
    exit(1)
}
