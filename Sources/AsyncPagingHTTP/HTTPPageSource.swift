import Foundation
import AsyncPaging

/// A ``AsyncPaging/PageSource`` that fetches each page with one HTTP request.
///
/// Build one for a pagination scheme with the static constructors — a cursor in the JSON body
/// (``cursorInBody(url:cursorParameter:pageSizeParameter:body:items:next:transport:decoder:)``),
/// the `Link: <…>; rel="next"` header as GitHub's API uses it
/// (``linkHeader(url:pageSizeParameter:body:items:transport:decoder:)``), offset and limit
/// (``offsetLimit(url:offsetParameter:limitParameter:body:items:total:transport:decoder:)``),
/// page numbers (``pageNumbers(url:pageParameter:firstPage:pageSizeParameter:body:items:hasMore:transport:decoder:)``)
/// — or with ``init(transport:makeRequest:parse:)`` for any other.
///
/// A status other than 2xx throws ``HTTPPageError/status(_:bodyExcerpt:retryAfter:)``; a failed
/// request ``HTTPPageError/transport(_:)``; a body that does not decode
/// ``HTTPPageError/decoding(_:bodyExcerpt:)``. Cancelling the fetch (a refresh preempting a
/// load-more, a timeout, `close()`) ends it at once with `CancellationError`; what happens to
/// the HTTP request is the transport's: see <doc:ChoosingATransport>.
///
/// ```swift
/// struct Repo: Decodable, Sendable { let id: Int; let name: String }
/// let source = HTTPPageSource<Repo, URL>.linkHeader(
///     url: URL(string: "https://api.github.com/orgs/swiftlang/repos")!,
///     pageSizeParameter: "per_page", body: [Repo].self, items: { $0 })
/// let feed = FeedController(source: source, id: \.id)
/// ```
///
/// ## Plugging in AsyncHTTPClient
///
/// A server on Linux gives the page source an AsyncHTTPClient client through a ten-line
/// ``HTTPTransport`` (AsyncHTTPClient closes a request when its task is cancelled; why a
/// server should prefer it to `URLSession` there is in <doc:ChoosingATransport>):
///
/// ```swift
/// import AsyncHTTPClient
/// import AsyncPagingHTTP
/// import Foundation
/// import NIOCore
/// import NIOFoundationCompat
///
/// struct AsyncHTTPClientTransport: HTTPTransport {
///     let client: HTTPClient
///     func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
///         var outgoing = HTTPClientRequest(url: request.url.absoluteString)
///         outgoing.method = .init(rawValue: request.method)
///         for (name, value) in request.headerFields { outgoing.headers.add(name: name, value: value) }
///         if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
///         let response = try await client.execute(outgoing, timeout: .seconds(30))
///         let body = try await response.body.collect(upTo: 16 << 20)
///         let fields = Dictionary(response.headers.map { ($0.name, $0.value) }) { $0 + ", " + $1 }
///         return HTTPTransportResponse(status: Int(response.status.code), headerFields: fields, body: Data(buffer: body))
///     }
/// }
///
/// let source = HTTPPageSource<Repo, URL>.linkHeader(
///     url: apiURL, body: [Repo].self, items: { $0 },
///     transport: AsyncHTTPClientTransport(client: .shared))
/// ```
public struct HTTPPageSource<Item: Sendable, Cursor: Hashable & Sendable>: PageSource {
    /// Sends the requests.
    public let transport: any HTTPTransport
    @usableFromInline let makeRequest: @Sendable (PageRequest<Cursor>) throws -> HTTPTransportRequest
    @usableFromInline let parse: @Sendable (HTTPTransportResponse, PageRequest<Cursor>) throws -> Page<Item, Cursor>

    /// Creates a page source for any scheme.
    ///
    /// - Parameters:
    ///   - transport: Sends the requests.
    ///   - makeRequest: The request for a page (`request.cursor == nil`: the first page).
    ///   - parse: The page in a 2xx response. Errors it throws reach the engine as they are,
    ///     except `DecodingError`, which becomes ``HTTPPageError/decoding(_:bodyExcerpt:)``.
    public init(
        transport: any HTTPTransport = URLSessionTransport(),
        makeRequest: @escaping @Sendable (PageRequest<Cursor>) throws -> HTTPTransportRequest,
        parse: @escaping @Sendable (HTTPTransportResponse, PageRequest<Cursor>) throws -> Page<Item, Cursor>
    ) {
        self.transport = transport
        self.makeRequest = makeRequest
        self.parse = parse
    }

    /// Sends the request for `request`'s page and parses the answer; see the type's documentation for the errors.
    public func page(for request: PageRequest<Cursor>) async throws -> Page<Item, Cursor> {
        let httpRequest = try makeRequest(request)
        let response: HTTPTransportResponse
        do {
            response = try await transport.send(httpRequest)
        } catch let error as CancellationError {
            throw error
        } catch let error as HTTPPageError {
            throw error
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw HTTPPageError.transport(String(describing: error))
        }
        guard response.isSuccess else {
            throw HTTPPageError.status(
                response.status,
                bodyExcerpt: HTTPPageError.excerpt(of: response.body),
                retryAfter: response.value(forHeader: "Retry-After").flatMap { RetryAfter.parse($0) })
        }
        do {
            return try parse(response, request)
        } catch let error as DecodingError {
            throw HTTPPageError.decoding(Self.describe(error), bodyExcerpt: HTTPPageError.excerpt(of: response.body))
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "" : " at \(keys)"
        }
        switch error {
        case .typeMismatch(let type, let context): return "type mismatch for \(type)\(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "missing \(type) value\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context): return "missing key \(key.stringValue)\(path(context))"
        case .dataCorrupted(let context): return "corrupted data\(path(context)): \(context.debugDescription)"
        @unknown default: return String(describing: error)
        }
    }
}

extension URL {
    /// This URL with `values` set in its query (replacing parameters of the same names).
    func settingQuery(_ values: [(String, String)]) throws(HTTPPageError) -> URL {
        guard var components = URLComponents(url: self, resolvingAgainstBaseURL: true) else {
            throw .invalidPagination("not a URL: \(absoluteString)")
        }
        let names = Set(values.map(\.0))
        var items = (components.queryItems ?? []).filter { !names.contains($0.name) }
        items += values.map { URLQueryItem(name: $0.0, value: $0.1) }
        components.queryItems = items
        guard let url = components.url else { throw .invalidPagination("cannot set the query of \(absoluteString)") }
        return url
    }
}
