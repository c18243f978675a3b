import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI
import Synchronization

typealias Source = ScriptedPageSource<Int, Int>
typealias Controller = FeedController<Int, Int>

/// An error a scripted source throws.
struct Offline: Error, Hashable {}

/// A page of the integers in `range`, pointing at `next`.
func page(_ range: Range<Int>, next: Int?, latency: Duration = .zero) -> Source.Response {
    .page(Array(range), next: next, latency: latency)
}

/// A controller on a test clock whose source answers from `responses`, in order; the first one
/// answers the initial load.
func makeController(
    _ responses: Source.Response...,
    configuration: FeedConfiguration = .default,
    initialCursor: Int? = nil
) -> (Controller, Source, TestClock) {
    let source = Source()
    for response in responses { source.enqueue(response) }
    let clock = TestClock()
    return (Controller(source: source, clock: clock, configuration: configuration, initialCursor: initialCursor), source, clock)
}

/// A page of the integers in `range` between `previous` and `next`.
func page(_ range: Range<Int>, previous: Int?, next: Int?, latency: Duration = .zero) -> Source.Response {
    .page(Page(items: Array(range), previous: previous, next: next), latency: latency)
}

/// A source of `pages` pages of ten numbers: page `c` holds `10c..<10c+10`, its `previous` is
/// `c - 1` and its `next` `c + 1`, `nil` past either end; no cursor means page 0. The queue
/// `overrides` answers the first requests at a cursor, in order (a failure, a latency); then the
/// numbered page answers at once.
func numberedSource(pages: Int, overrides: [Int: [Source.Response]] = [:]) -> Source {
    let left = Mutex(overrides)
    return Source { request in
        let cursor = request.cursor ?? 0
        let override = left.withLock { left -> Source.Response? in
            guard var responses = left[cursor], !responses.isEmpty else { return nil }
            defer { left[cursor] = responses }
            return responses.removeFirst()
        }
        if let override { return override }
        return page(
            (cursor * 10)..<(cursor * 10 + 10), previous: cursor > 0 ? cursor - 1 : nil,
            next: cursor + 1 < pages ? cursor + 1 : nil)
    }
}

/// A controller on a test clock over `source`, opened at `initialCursor`.
func makeController(
    source: Source, configuration: FeedConfiguration = .default, initialCursor: Int? = nil
) -> (Controller, TestClock) {
    let clock = TestClock()
    return (Controller(source: source, clock: clock, configuration: configuration, initialCursor: initialCursor), clock)
}

/// A configuration for these tests; the values are valid, so this cannot throw.
func configuration(
    pageSize: Int = 15,
    loadsInitialPage: Bool = true,
    loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy = .cancelRefresh,
    loadPreviousDuringRefresh: LoadPreviousDuringRefreshPolicy = .cancelRefresh,
    bothEnds: BothEndsPolicy = .runBoth
) -> FeedConfiguration {
    do {
        return try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: loadsInitialPage, loadMoreDuringRefresh: loadMoreDuringRefresh,
            loadPreviousDuringRefresh: loadPreviousDuringRefresh, bothEnds: bothEnds)
    } catch {
        fatalError("invalid test configuration: \(error)")
    }
}
