import AsyncPaging

/// A configuration for the reliability tests, from valid values only.
func reliabilityConfiguration(
    pageSize: Int = 3,
    loadsInitialPage: Bool = true,
    loadMoreDuringRefresh: LoadMoreDuringRefreshPolicy = .cancelRefresh,
    refreshDuringRefresh: RefreshDuringRefreshPolicy = .restart,
    retry: RetryPolicy = .none,
    timeout: Duration? = nil,
    duplicates: DuplicatePolicy = .drop
) -> FeedConfiguration {
    do {
        return try FeedConfiguration(
            pageSize: pageSize, loadsInitialPage: loadsInitialPage, loadMoreDuringRefresh: loadMoreDuringRefresh,
            refreshDuringRefresh: refreshDuringRefresh, retry: retry, timeout: timeout, duplicates: duplicates)
    } catch {
        fatalError("the reliability configuration is valid: \(error)")
    }
}

/// Every value a stream still holds or will get, once it has finished.
func collect<Element>(_ stream: AsyncStream<Element>) async -> [Element] {
    var values: [Element] = []
    for await value in stream { values.append(value) }
    return values
}
