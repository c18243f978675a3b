/// The body of a page that `--url` fetched, in the shapes the demo reads (the same for every
/// scheme, so that one rule covers them all):
///
/// - a top-level array: the items;
/// - or an object whose `items` (else `data`) member is the array of items, with optionally
///   `next` (else `next_cursor`) — the next cursor for `--scheme cursor`, a string or a number,
///   null or absent at the end — `total` (for `offset`) and `has_more` (for `pages`).
///
/// Anything else does not decode, and the page fails with `HTTPPageError.decoding`.
struct HTTPPageBody: Decodable, Sendable {
    let items: [JSONFeedItem]
    let next: String?
    let total: Int?
    let hasMore: Bool?

    init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        let array: [JSONValue]
        switch value {
        case .array(let elements):
            array = elements
        case .object:
            guard case .array(let elements)? = value["items"] ?? value["data"] else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: [], debugDescription: "expected a top-level array, or an object with an `items` or `data` array"))
            }
            array = elements
        default:
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "expected a top-level array or object, got \(value.compactJSON.prefix(40))"))
        }
        items = array.map(JSONFeedItem.init)
        next = (value["next"] ?? value["next_cursor"])?.scalarText
        if case .integer(let total)? = value["total"] { self.total = total } else { total = nil }
        if case .bool(let hasMore)? = value["has_more"] { self.hasMore = hasMore } else { hasMore = nil }
    }
}
