import AsyncPaging
import AsyncPagingHTTP
import Hummingbird

/// The HTTP status of an answer whose load failed upstream, so that a proxy, a load balancer
/// or a client's retry logic sees a failure without reading the body (which keeps its shape,
/// with the typed ``FeedFailure`` in it):
///
/// | the failure | status |
/// | --- | --- |
/// | ``FeedError/timedOut(after:)`` (the page took longer than the configured timeout) | 504 Gateway Timeout |
/// | the upstream answered 503 or 429 (it asks to be called later) | 503 Service Unavailable, with `Retry-After` when it sent one |
/// | any other upstream answer or transport error, a body that does not decode, a repeated cursor, an empty page that claims more | 502 Bad Gateway |
/// | ``FeedError/clockFailed(_:)`` (this service's clock, not the upstream) | 500 Internal Server Error |
public struct UpstreamFailureStatus: Sendable, Equatable {
    /// The status to answer.
    public var status: HTTPResponse.Status
    /// Extra headers (`Retry-After`).
    public var headers: HTTPFields

    /// The status of `failure`.
    public init(_ failure: FeedFailure) {
        headers = [:]
        switch failure.error {
        case FeedError.timedOut:
            status = .gatewayTimeout
        case FeedError.clockFailed:
            status = .internalServerError
        case let error as HTTPPageError where error.statusCode == 503 || error.statusCode == 429:
            status = .serviceUnavailable
            if let retryAfter = error.retryAfter {
                let seconds = max(1, retryAfter.components.seconds + (retryAfter.components.attoseconds > 0 ? 1 : 0))
                headers[.retryAfter] = String(seconds)
            }
        default:
            status = .badGateway
        }
    }

    /// The status of an answer with `outcome`: nil (200) unless the load failed.
    public init?(_ outcome: LoadOutcome) {
        guard case .failed(let failure) = outcome else { return nil }
        self.init(failure)
    }
}
