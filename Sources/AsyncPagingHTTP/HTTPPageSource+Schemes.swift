import Foundation
import AsyncPaging

extension HTTPPageSource where Cursor == String {
    /// Pages whose JSON body carries the next cursor: `GET url?limit=20`, then
    /// `GET url?cursor=<next>&limit=20` until the body has no next cursor.
    ///
    /// ```swift
    /// struct Body: Decodable { let data: [Post]; let nextCursor: String? }
    /// let source = HTTPPageSource<Post, String>.cursorInBody(
    ///     url: postsURL, body: Body.self, items: \.data, next: \.nextCursor)
    /// ```
    ///
    /// - Parameters:
    ///   - url: The first page's URL; its own query parameters are kept.
    ///   - cursorParameter: The query parameter that carries the cursor.
    ///   - pageSizeParameter: The query parameter that carries the page size, or nil to send none.
    ///   - body: The shape of the JSON body.
    ///   - items: Where the items are in the body (a key path such as `\.data` will do).
    ///   - next: Where the next cursor is; nil or an empty string means the end.
    ///   - transport: Sends the requests.
    ///   - decoder: Decodes the body.
    public static func cursorInBody<Body: Decodable & Sendable>(
        url: URL,
        cursorParameter: String = "cursor",
        pageSizeParameter: String? = "limit",
        body: Body.Type,
        items: @escaping @Sendable (Body) -> [Item],
        next: @escaping @Sendable (Body) -> String?,
        transport: any HTTPTransport = URLSessionTransport(),
        decoder: JSONDecoder = JSONDecoder()
    ) -> HTTPPageSource {
        HTTPPageSource(transport: transport) { request in
            var query: [(String, String)] = []
            if let cursor = request.cursor { query.append((cursorParameter, cursor)) }
            if let pageSizeParameter { query.append((pageSizeParameter, String(request.pageSize))) }
            return HTTPTransportRequest(url: try url.settingQuery(query), headerFields: ["Accept": "application/json"])
        } parse: { response, _ in
            let decoded = try decoder.decode(Body.self, from: response.body)
            let cursor = next(decoded)
            return Page(items: items(decoded), next: cursor?.isEmpty == false ? cursor : nil)
        }
    }
}

extension HTTPPageSource where Cursor == URL {
    /// Pages linked by the `Link` header (RFC 8288), as GitHub's API does:
    /// `Link: <https://api.example.com/items?page=2>; rel="next"`. The cursor is the next
    /// page's URL (relative targets are resolved against the request's URL); no `rel="next"`
    /// link means the end.
    ///
    /// ```swift
    /// let source = HTTPPageSource<Repo, URL>.linkHeader(
    ///     url: reposURL, pageSizeParameter: "per_page", body: [Repo].self, items: { $0 })
    /// ```
    ///
    /// - Parameters:
    ///   - url: The first page's URL.
    ///   - pageSizeParameter: The query parameter that carries the page size on the first
    ///     request, or nil; later requests follow the links as given.
    ///   - body: The shape of the JSON body.
    ///   - items: Where the items are in the body (`{ $0 }` when the body is the array).
    ///   - transport: Sends the requests.
    ///   - decoder: Decodes the body.
    public static func linkHeader<Body: Decodable & Sendable>(
        url: URL,
        pageSizeParameter: String? = "per_page",
        body: Body.Type,
        items: @escaping @Sendable (Body) -> [Item],
        transport: any HTTPTransport = URLSessionTransport(),
        decoder: JSONDecoder = JSONDecoder()
    ) -> HTTPPageSource {
        @Sendable func requestURL(_ request: PageRequest<URL>) throws(HTTPPageError) -> URL {
            if let cursor = request.cursor { return cursor }
            guard let pageSizeParameter else { return url }
            return try url.settingQuery([(pageSizeParameter, String(request.pageSize))])
        }
        return HTTPPageSource(transport: transport) { request in
            HTTPTransportRequest(url: try requestURL(request), headerFields: ["Accept": "application/json"])
        } parse: { response, request in
            let decoded = try decoder.decode(Body.self, from: response.body)
            var nextURL: URL?
            if let header = response.value(forHeader: "Link"), let target = LinkHeader(header).target(relation: "next") {
                guard let resolved = URL(string: target, relativeTo: try requestURL(request))?.absoluteURL else {
                    throw HTTPPageError.invalidPagination("the next link is not a URL: \(target)")
                }
                nextURL = resolved
            }
            return Page(items: items(decoded), next: nextURL)
        }
    }
}

extension HTTPPageSource where Cursor == Int {
    /// Pages addressed by offset and limit: `GET url?offset=0&limit=20`, then `offset=20`, …
    /// The cursor is the next offset. The end is reached when `total` says so, or (without
    /// `total`) when a page comes back shorter than the page size.
    ///
    /// Items inserted at the head while paging shift the offsets, so a page may repeat items of
    /// the previous one: give the controller an `id` so that ``AsyncPaging/FeedConfiguration/duplicates``
    /// drops them. An offset that would pass `Int.max` (a cursor near it, as `refresh(from:)`
    /// may give) throws ``HTTPPageError/invalidPagination(_:)`` instead of trapping.
    ///
    /// - Parameters:
    ///   - url: The URL; its own query parameters are kept.
    ///   - offsetParameter: The query parameter of the offset.
    ///   - limitParameter: The query parameter of the page size.
    ///   - body: The shape of the JSON body.
    ///   - items: Where the items are in the body.
    ///   - total: Where the total count is, if the body has one.
    ///   - transport: Sends the requests.
    ///   - decoder: Decodes the body.
    public static func offsetLimit<Body: Decodable & Sendable>(
        url: URL,
        offsetParameter: String = "offset",
        limitParameter: String = "limit",
        body: Body.Type,
        items: @escaping @Sendable (Body) -> [Item],
        total: (@Sendable (Body) -> Int?)? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        decoder: JSONDecoder = JSONDecoder()
    ) -> HTTPPageSource {
        HTTPPageSource(transport: transport) { request in
            let query = [(offsetParameter, String(request.cursor ?? 0)), (limitParameter, String(request.pageSize))]
            return HTTPTransportRequest(url: try url.settingQuery(query), headerFields: ["Accept": "application/json"])
        } parse: { response, request in
            let decoded = try decoder.decode(Body.self, from: response.body)
            let pageItems = items(decoded)
            let (nextOffset, overflow) = (request.cursor ?? 0).addingReportingOverflow(pageItems.count)
            let hasMore: Bool
            if let total = total?(decoded) {
                hasMore = !pageItems.isEmpty && nextOffset < total
            } else {
                hasMore = !pageItems.isEmpty && pageItems.count >= request.pageSize
            }
            if hasMore && overflow { throw HTTPPageError.invalidPagination("the next offset passes Int.max") }
            return Page(items: pageItems, next: hasMore ? nextOffset : nil)
        }
    }

    /// Pages addressed by number: `GET url?page=1&per_page=20`, then `page=2`, … The cursor is
    /// the next page number. The end is reached when `hasMore` says so, or (without it, or
    /// when it answers nil) when a page comes back shorter than the page size.
    ///
    /// As with offsets, items inserted at the head shift pages: identify items so that
    /// repeats are dropped. A next page number that would pass `Int.max` throws
    /// ``HTTPPageError/invalidPagination(_:)`` instead of trapping.
    ///
    /// - Parameters:
    ///   - url: The URL; its own query parameters are kept.
    ///   - pageParameter: The query parameter of the page number.
    ///   - firstPage: The first page's number (1 unless the API counts from 0).
    ///   - pageSizeParameter: The query parameter of the page size, or nil to send none.
    ///   - body: The shape of the JSON body.
    ///   - items: Where the items are in the body.
    ///   - hasMore: Whether the body says more pages follow, if it does.
    ///   - transport: Sends the requests.
    ///   - decoder: Decodes the body.
    public static func pageNumbers<Body: Decodable & Sendable>(
        url: URL,
        pageParameter: String = "page",
        firstPage: Int = 1,
        pageSizeParameter: String? = "per_page",
        body: Body.Type,
        items: @escaping @Sendable (Body) -> [Item],
        hasMore: (@Sendable (Body) -> Bool?)? = nil,
        transport: any HTTPTransport = URLSessionTransport(),
        decoder: JSONDecoder = JSONDecoder()
    ) -> HTTPPageSource {
        HTTPPageSource(transport: transport) { request in
            var query = [(pageParameter, String(request.cursor ?? firstPage))]
            if let pageSizeParameter { query.append((pageSizeParameter, String(request.pageSize))) }
            return HTTPTransportRequest(url: try url.settingQuery(query), headerFields: ["Accept": "application/json"])
        } parse: { response, request in
            let decoded = try decoder.decode(Body.self, from: response.body)
            let pageItems = items(decoded)
            let more = hasMore?(decoded) ?? (!pageItems.isEmpty && pageItems.count >= request.pageSize)
            guard more else { return Page(items: pageItems, next: nil) }
            let (nextPage, overflow) = (request.cursor ?? firstPage).addingReportingOverflow(1)
            if overflow { throw HTTPPageError.invalidPagination("the next page number passes Int.max") }
            return Page(items: pageItems, next: nextPage)
        }
    }
}
