/// How `--url`'s API pages, as `--scheme` names it; each maps to one of `AsyncPagingHTTP`'s
/// page sources, with the query parameters the common APIs (and the fixture server) use.
enum HTTPScheme: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `?cursor=…&limit=N`; the body is an object with the items and the next cursor.
    case cursor
    /// `?per_page=N` on the first request, then the `Link: <…>; rel="next"` header (GitHub).
    case link
    /// `?offset=…&limit=N`; ends at `total` if the body has one, else at a short page.
    case offset
    /// `?page=1&per_page=N`, `page=2`, …; ends at `has_more: false` or a short page.
    case pages

    static let `default` = HTTPScheme.link

    var description: String { rawValue }
}
