/// The HTTP client pages of `--upstream` are fetched with (`--upstream-client`).
public enum UpstreamClient: String, Sendable, CaseIterable {
    /// ``AsyncHTTPClientTransport`` over `HTTPClient.shared` (the default): a cancelled load —
    /// a refresh that preempts a load-more, a deleted session — cancels its request and frees
    /// its connection at once.
    case asyncHTTPClient = "async-http-client"
    /// `URLSessionTransport` over `URLSession.shared`. On Linux a cancelled load's request runs
    /// to its end (cancelling a FoundationNetworking data task can crash the process), keeping
    /// its connection until then.
    case urlSession = "urlsession"
}
