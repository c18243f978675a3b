/// JSON, one object per record, with a `kind`:
/// ```json
/// {"kind": "replaced", "state": { …a FeedState… }}
/// {"kind": "appended", "page": {"items": [ … ], "previous": "c1", "next": "c3"}}
/// {"kind": "prepended", "page": {"items": [ … ], "previous": null, "next": "c0"}}
/// {"kind": "dropped", "pageCount": 2, "itemCount": 40, "from": "start"}
/// ```
/// The state is in ``FeedState``'s own shape; a page's `previous` and `next` may be absent
/// (`nil`). A store that keeps records as rows or files may write them this way. Decoding
/// another shape throws a `DecodingError` (a replaced state that cannot be restored, the
/// ``FeedStateError`` of ``FeedState``); it never traps.
extension FeedSessionRecord: Encodable where Item: Encodable, Cursor: Encodable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .replaced(let state):
            try container.encode("replaced", forKey: "kind")
            try container.encode(state, forKey: "state")
        case .appended(let page), .prepended(let page):
            try container.encode(isAppended ? "appended" : "prepended", forKey: "kind")
            var entry = container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "page")
            try entry.encode(page.items, forKey: "items")
            try entry.encodeIfPresent(page.previous, forKey: "previous")
            try entry.encodeIfPresent(page.next, forKey: "next")
        case .dropped(let pageCount, let itemCount, let end):
            try container.encode("dropped", forKey: "kind")
            try container.encode(pageCount, forKey: "pageCount")
            try container.encode(itemCount, forKey: "itemCount")
            try container.encode(end, forKey: "from")
        }
    }

    private var isAppended: Bool {
        if case .appended = self { return true }
        return false
    }
}

extension FeedSessionRecord: Decodable where Item: Decodable, Cursor: Decodable {
    /// Decodes the JSON shape documented on this extension.
    /// - Throws: `DecodingError` for input of another shape, or a state that cannot be restored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: "kind")
        switch kind {
        case "replaced":
            self = .replaced(try container.decode(FeedState<Item, Cursor>.self, forKey: "state"))
        case "appended", "prepended":
            let entry = try container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "page")
            let page = Page(
                items: try entry.decode([Item].self, forKey: "items"),
                previous: try entry.decodeIfPresent(Cursor.self, forKey: "previous"),
                next: try entry.decodeIfPresent(Cursor.self, forKey: "next"))
            self = kind == "appended" ? .appended(page) : .prepended(page)
        case "dropped":
            self = .dropped(
                pageCount: try container.decode(Int.self, forKey: "pageCount"),
                itemCount: try container.decode(Int.self, forKey: "itemCount"),
                from: try container.decode(End.self, forKey: "from"))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: "kind", in: container, debugDescription: "unknown record kind \(kind)")
        }
    }
}
