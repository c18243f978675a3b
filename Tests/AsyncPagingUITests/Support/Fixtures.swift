import AsyncPaging
import AsyncPagingTesting
import AsyncPagingUI

typealias Source = ScriptedPageSource<Int, Int>
typealias Controller = FeedController<Int, Int>

/// An error a scripted source throws.
struct Offline: Error, Hashable {}

/// A page of the integers in `range`, pointing at `next`.
func page(_ range: Range<Int>, next: Int?, latency: Duration = .zero) -> Source.Response {
    .items(Array(range), next: next, latency: latency)
}

/// A controller on a test clock whose source answers from `responses`, in order; the first one
/// answers the initial load.
func makeController(
    _ responses: Source.Response...,
    configuration: FeedConfiguration = .default
) -> (Controller, Source, TestClock) {
    let source = Source()
    for response in responses { source.enqueue(response) }
    let clock = TestClock()
    return (Controller(source: source, clock: clock, configuration: configuration), source, clock)
}

/// A configuration for these tests; the values are valid, so this cannot throw.
func configuration(
    pageSize: Int = 15,
    loadsInitialPage: Bool = true,
    loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy = .cancelRefresh
) -> FeedConfiguration {
    do {
        return try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: loadsInitialPage, loadMoreDuringRefresh: loadMoreDuringRefresh)
    } catch {
        fatalError("invalid test configuration: \(error)")
    }
}
