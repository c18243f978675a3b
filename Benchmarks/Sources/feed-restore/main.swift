// Export and restore of a 100,000-item feed (issue 13), side by side with building the same
// list by loading its pages, in one process: the figures README.md reports under "Export and
// restore". Time is wall clock (ContinuousClock), the median of the rounds; every operation
// runs once per round, in turn, so that the ratios compare figures taken together.
//
//   swift run -c release feed-restore [items] [rounds]      (defaults: 100000 5)
//
// JSON is Foundation's JSONEncoder/JSONDecoder (the engine writes no JSON itself: FeedState is
// Codable, and an app picks its coder).
import AsyncPaging
import Foundation

/// An Identifiable post with two strings that live on the heap (longer than 15 bytes), as a
/// real post's text does.
struct BenchPost: Identifiable, Codable, Sendable, Equatable {
    let id: Int
    let author: String
    let text: String
}

/// A two-ended source of `count` posts in pages of `pageSize`, answering at once: the cursor is
/// the page index.
struct PostsInMemory: PageSource {
    let posts: [BenchPost]
    let pageSize: Int

    func page(for request: PageRequest<Int>) async throws -> Page<BenchPost, Int> {
        let index = request.cursor ?? 0
        let lower = index * pageSize
        let upper = min(lower + pageSize, posts.count)
        let pageCount = (posts.count + pageSize - 1) / pageSize
        return Page(
            items: Array(posts[lower..<upper]), previous: index > 0 ? index - 1 : nil,
            next: index + 1 < pageCount ? index + 1 : nil)
    }
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let itemCount = arguments.first ?? 100_000
let rounds = arguments.dropFirst().first ?? 5
let pageSize = 20
let posts = (0..<itemCount).map {
    BenchPost(id: $0, author: "author number \($0 % 97) of the feed", text: "the text of post \($0), which is long enough")
}
let source = PostsInMemory(posts: posts, pageSize: pageSize)
// A bound of the whole feed: it drops nothing, but the controller keeps a record per page, so
// the state holds the 5,000 pages one by one (an unbounded feed saves its list as one page).
let configuration = try FeedConfiguration(pageSize: pageSize, maximumItems: itemCount)

func measure<T>(_ body: () async throws -> T) async rethrows -> (Duration, T) {
    let start = ContinuousClock.now
    let result = try await body()
    return (ContinuousClock.now - start, result)
}

func median(_ durations: [Duration]) -> Duration { durations.sorted()[durations.count / 2] }

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    return String(format: "%.1f ms", value)
}

struct Failure: Error, CustomStringConvertible { let description: String }

var times: [String: [Duration]] = [:]
var jsonBytes = 0
for _ in 0..<rounds {
    // Building the list by loading its pages: the initial load, then load-more to the end.
    let (load, feed) = await measure {
        let feed = FeedController<BenchPost, Int>(source: source, configuration: configuration)
        await feed.waitForFirstPage()
        while await feed.loadMore().outcome != .endOfData {}
        return feed
    }
    guard feed.currentSnapshot.count == itemCount else { throw Failure(description: "loaded \(feed.currentSnapshot.count)") }
    times["load", default: []].append(load)

    let (export, exported) = await measure { try! await feed.exportState(anchorIndex: itemCount / 2) }
    guard let state = exported, state.itemCount == itemCount else { throw Failure(description: "export failed") }
    times["export", default: []].append(export)

    let (anchorExport, byID) = await measure { try! await feed.exportState(anchorID: itemCount - 1) }
    guard byID?.anchorIndex == itemCount - 1 else { throw Failure(description: "export by id failed") }
    times["export by anchor id", default: []].append(anchorExport)

    let (encode, data) = try await measure { try JSONEncoder().encode(state) }
    jsonBytes = data.count
    times["JSON encode", default: []].append(encode)

    let (decode, decoded) = try await measure { try JSONDecoder().decode(FeedState<BenchPost, Int>.self, from: data) }
    guard decoded.itemCount == itemCount else { throw Failure(description: "decode failed") }
    times["JSON decode", default: []].append(decode)

    let (restore, restored) = await measure {
        FeedController<BenchPost, Int>(source: source, configuration: configuration, restoring: decoded, restorePolicy: .never)
    }
    guard restored.currentSnapshot.count == itemCount, restored.restoredAnchorIndex == itemCount / 2,
          restored.currentSnapshot[itemCount - 1] == posts[itemCount - 1]
    else { throw Failure(description: "restore failed") }
    times["restore", default: []].append(restore)
    await restored.close()
    await feed.close()
}

let loadMedian = median(times["load"]!)
print("feed-restore: \(itemCount) Identifiable posts in pages of \(pageSize), \(rounds) rounds, medians (wall clock)")
print("| operation | time | ÷ loading the pages |")
print("| --- | ---: | ---: |")
for name in ["load", "export", "export by anchor id", "JSON encode", "JSON decode", "restore"] {
    let time = median(times[name]!)
    let ratio = Double(time.components.seconds) * 1e18 + Double(time.components.attoseconds)
    let base = Double(loadMedian.components.seconds) * 1e18 + Double(loadMedian.components.attoseconds)
    let label = name == "load" ? "load \(itemCount / pageSize) pages (initial load + load-more)" : name
    print("| \(label) | \(milliseconds(time)) | \(String(format: "%.3f", ratio / base)) |")
}
print("JSON: \(jsonBytes) bytes (\(String(format: "%.1f", Double(jsonBytes) / Double(itemCount))) bytes per post)")
