/// What the interactive screen asks of the backend behind the feed, beyond its pages: the
/// simulated API, or the HTTP API of `--url`.
protocol DemoBackend: Sendable {
    /// The title bar's summary, such as `3 requests, 0 cancelled, 1 failed`.
    var summary: String { get }
    /// The `f` key: makes the next request fail, if this backend can. Returns what to say.
    func injectFailure() -> String
}

extension SimulatedFeedAPI: DemoBackend {
    var summary: String {
        let stats = self.stats
        return "\(stats.requests) requests, \(stats.cancelled) cancelled, \(stats.failed) failed"
    }

    func injectFailure() -> String {
        inject(.fail)
        return "• the next request will fail"
    }
}
