import Foundation
import AsyncPaging

/// Why an HTTP page source could not produce a page.
///
/// Conforms to `PageSourceError`, so the engine's default retry condition retries exactly what
/// is worth retrying: transport failures, 408, 429 and 5xx — and a `Retry-After` the server
/// sent sets the delay before the retry, shorter or longer than the policy's backoff
/// (`Retry-After: 0` retries at once), capped by the policy's maximum backoff. Other 4xx answers, bodies that do not decode and
/// malformed pagination headers are not retried: asking again would get the same answer.
public enum HTTPPageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status other than 2xx.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - bodyExcerpt: The first bytes of the body (at most ``bodyExcerptLimit``), as UTF-8
    ///     with invalid bytes replaced.
    ///   - retryAfter: The `Retry-After` header, as a delay from when the response arrived
    ///     (given as seconds or as an HTTP-date); nil without one or if it did not parse.
    case status(Int, bodyExcerpt: String, retryAfter: Duration?)
    /// The request did not get a response: connection refused or reset, DNS, TLS, a client
    /// timeout. The associated text is the underlying error's description.
    case transport(String)
    /// The body did not decode into the page shape. The text is the decoder's description of
    /// the problem; the excerpt is the start of the body.
    case decoding(String, bodyExcerpt: String)
    /// The response decoded, but its pagination did not make sense, such as a `Link` header
    /// whose next URL is not a URL.
    case invalidPagination(String)

    /// How many bytes of a body an error keeps.
    public static let bodyExcerptLimit = 512

    /// Whether asking again may succeed: transport failures, 408, 429 and 5xx.
    public var isRetryable: Bool {
        switch self {
        case .status(let status, _, _): status == 408 || status == 429 || (500...599).contains(status)
        case .transport: true
        case .decoding, .invalidPagination: false
        }
    }

    /// The delay the server asked for with `Retry-After`, if any.
    public var retryAfter: Duration? {
        if case .status(_, _, let retryAfter) = self { return retryAfter }
        return nil
    }

    /// The status code, for ``status(_:bodyExcerpt:retryAfter:)``.
    public var statusCode: Int? {
        if case .status(let status, _, _) = self { return status }
        return nil
    }

    /// A readable description, for logs.
    public var description: String {
        switch self {
        case .status(let status, let excerpt, let retryAfter):
            "HTTP \(status)\(retryAfter.map { " (retry after \($0))" } ?? "")\(excerpt.isEmpty ? "" : ": \(excerpt)")"
        case .transport(let text): "transport error: \(text)"
        case .decoding(let text, _): "the page did not decode: \(text)"
        case .invalidPagination(let text): "invalid pagination: \(text)"
        }
    }

    /// The start of `body` as text, for error messages.
    static func excerpt(of body: Data) -> String {
        String(decoding: body.prefix(bodyExcerptLimit), as: UTF8.self)
    }
}

/// The engine's default retry condition asks ``HTTPPageError/isRetryable``, and a retry waits
/// exactly ``HTTPPageError/retryAfter`` when the response had a `Retry-After` header, in place
/// of the policy's backoff, shorter or longer (`Retry-After: 0` retries at once), capped by the
/// policy's ``AsyncPaging/RetryPolicy/maximumBackoff``.
extension HTTPPageError: PageSourceError {}
