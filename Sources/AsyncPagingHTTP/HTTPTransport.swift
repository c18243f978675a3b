#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What an HTTP page source needs from an HTTP client: send one request, get its status,
/// headers and body.
///
/// Cancelling the calling task must end ``send(_:)`` promptly by throwing `CancellationError`
/// (or the client's own cancellation error: the page source reports any error thrown after
/// cancellation as `CancellationError`). It should also cancel the request (close the
/// connection or stop the stream) when the client can do so safely; ``URLSessionTransport`` on
/// Linux cannot, and lets the request run to its end (see <doc:ChoosingATransport>).
///
/// ## Topics
///
/// ### Transports
///
/// - <doc:ChoosingATransport>
/// - ``URLSessionTransport``
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
