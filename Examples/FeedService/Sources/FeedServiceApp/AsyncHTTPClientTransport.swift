import AsyncHTTPClient
import AsyncPagingHTTP
import Foundation
import NIOCore
import NIOFoundationCompat

/// An ``AsyncPagingHTTP/HTTPTransport`` over AsyncHTTPClient: the transport for a server on
/// Linux.
///
/// Cancelling the calling task makes AsyncHTTPClient cancel the request (on HTTP/1.1 by closing
/// its connection), and the send throws at once (the page source reports the load cancelled).
/// Unlike `URLSessionTransport` on Linux — which lets a cancelled request run to its end,
/// because cancelling a FoundationNetworking data task can trap — a cancelled load here does
/// not wait for its answer.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client requests go through (its connection pool, its event loops).
    public let client: HTTPClient
    /// The deadline of each request, from its start to its last body byte.
    public let requestTimeout: TimeAmount
    /// The largest body accepted; a longer one fails the request.
    public let maximumBodyBytes: Int

    /// Creates a transport over `client` (`HTTPClient.shared` by default, which is never shut
    /// down; a client you create yourself you shut down after its last request).
    public init(client: HTTPClient = .shared, requestTimeout: TimeAmount = .seconds(30), maximumBodyBytes: Int = 16 << 20) {
        self.client = client
        self.requestTimeout = requestTimeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Sends `request` and collects the whole body.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .init(rawValue: request.method)
        for (name, value) in request.headerFields { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: requestTimeout)
        let body = try await response.body.collect(upTo: maximumBodyBytes)
        // Repeated fields are joined with ", " by HTTPTransportResponse.
        let fields = Dictionary(response.headers.map { ($0.name, $0.value) }) { $0 + ", " + $1 }
        return HTTPTransportResponse(status: Int(response.status.code), headerFields: fields, body: Data(buffer: body))
    }
}
