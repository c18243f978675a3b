import Hummingbird

/// An answer other than success, with a typed JSON body:
/// `{"error": {"kind": "invalidSessionID", "message": "…"}}` and the status of its ``Kind``.
public struct ServiceError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// What went wrong; each kind has one HTTP status.
    public enum Kind: String, Codable, Sendable {
        /// 400: the session id in the path is not a ``SessionID``.
        case invalidSessionID
        /// 404: there is no such session (`GET …/events`, `DELETE` of an unknown session).
        case sessionNotFound
        /// 405: the path exists, the method does not (the `Allow` header lists those that do).
        case methodNotAllowed
        /// 409: the session's stored version moved while this request changed it (a write
        /// that bypassed the row lock); nothing was saved, the request can be sent again.
        case conflict
        /// 503: the session store did not answer (the database is down or unreachable).
        case storeUnavailable

        var status: HTTPResponse.Status {
            switch self {
            case .invalidSessionID: .badRequest
            case .sessionNotFound: .notFound
            case .methodNotAllowed: .methodNotAllowed
            case .conflict: .conflict
            case .storeUnavailable: .serviceUnavailable
            }
        }
    }

    /// The body: `{"error": {"kind", "message"}}`.
    public struct Body: Codable, Sendable {
        /// The error.
        public var error: Detail
    }

    /// The `error` object of a ``Body``.
    public struct Detail: Codable, Sendable {
        /// What went wrong.
        public var kind: Kind
        /// The same in words, for people.
        public var message: String
    }

    /// What went wrong.
    public var kind: Kind
    /// The same in words.
    public var message: String
    /// Extra headers (`Allow` for 405).
    public var headers: HTTPFields

    /// Creates an error of `kind`.
    public init(_ kind: Kind, _ message: String, headers: HTTPFields = [:]) {
        self.kind = kind
        self.message = message
        self.headers = headers
    }

    /// The HTTP status of ``kind``.
    public var status: HTTPResponse.Status { kind.status }

    /// The JSON answer, encoded by the context's encoder (sorted keys in this service).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(
            Body(error: Detail(kind: kind, message: message)), from: request, context: context)
        response.status = status
        response.headers.append(contentsOf: headers)
        return response
    }

    /// The kind and the message, for logs.
    public var description: String { "\(kind.rawValue): \(message)" }
}
