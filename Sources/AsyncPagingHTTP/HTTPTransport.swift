#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What an HTTP page source needs from an HTTP client: send one request, get its status,
/// headers and body.
///
/// Cancelling the calling task must cancel the request (close the connection or stop the
/// stream) and throw `CancellationError` (or the client's own cancellation error).
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the whole response.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
