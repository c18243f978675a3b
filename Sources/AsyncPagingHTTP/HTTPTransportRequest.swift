import Foundation

/// One HTTP request, as a page source asks its ``HTTPTransport`` to send it.
public struct HTTPTransportRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method, `GET` unless set.
    public var method: String
    /// The absolute URL, query included.
    public var url: URL
    /// Header fields to send, by name.
    public var headerFields: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String = "GET", url: URL, headerFields: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headerFields = headerFields
        self.body = body
    }

    /// `METHOD url`.
    public var description: String { "\(method) \(url.absoluteString)" }
}
