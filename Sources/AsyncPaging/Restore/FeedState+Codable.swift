/// JSON:
/// ```json
/// {"format": 1, "generation": 3, "anchorIndex": 42,
///  "savedAt": {"seconds": 1795478400, "attoseconds": 0},
///  "pages": [{"items": [ … ], "previous": null, "next": "c2"}, … ]}
/// ```
/// `anchorIndex`, `savedAt` and each page's `previous` and `next` may be absent (`nil`).
///
/// Decoding throws a `DecodingError` when the input is not this shape (truncated, a wrong
/// type, a missing field, another `format`), and the ``FeedStateError`` of
/// ``init(pages:generation:anchorIndex:savedAt:)`` when it is, but the state cannot be
/// restored (no pages, a repeated cursor, an anchor outside the list). It never traps.
extension FeedState: Encodable where Item: Encodable, Cursor: Encodable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        try container.encode(Self.formatVersion, forKey: "format")
        try container.encode(generation, forKey: "generation")
        try container.encodeIfPresent(anchorIndex, forKey: "anchorIndex")
        if let savedAt {
            var time = container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "savedAt")
            try time.encode(savedAt.components.seconds, forKey: "seconds")
            try time.encode(savedAt.components.attoseconds, forKey: "attoseconds")
        }
        var pageList = container.nestedUnkeyedContainer(forKey: "pages")
        for page in pages {
            var entry = pageList.nestedContainer(keyedBy: _FeedCodingKey.self)
            try entry.encode(page.items, forKey: "items")
            try entry.encodeIfPresent(page.previous, forKey: "previous")
            try entry.encodeIfPresent(page.next, forKey: "next")
        }
    }
}

extension FeedState: Decodable where Item: Decodable, Cursor: Decodable {
    /// Decodes the JSON shape documented on this extension, then validates it as
    /// ``init(pages:generation:anchorIndex:savedAt:)`` does.
    /// - Throws: `DecodingError` for input of another shape; ``FeedStateError`` for a state
    ///   that cannot be restored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let format = try container.decode(Int.self, forKey: "format")
        guard format == Self.formatVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: "format", in: container,
                debugDescription: "unknown feed state format \(format); this library reads \(Self.formatVersion)")
        }
        var savedAt: Duration?
        if container.contains("savedAt"), try !container.decodeNil(forKey: "savedAt") {
            let time = try container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "savedAt")
            savedAt = Duration(
                secondsComponent: try time.decode(Int64.self, forKey: "seconds"),
                attosecondsComponent: try time.decode(Int64.self, forKey: "attoseconds"))
        }
        var pageList = try container.nestedUnkeyedContainer(forKey: "pages")
        var pages: [Page<Item, Cursor>] = []
        while !pageList.isAtEnd {
            let entry = try pageList.nestedContainer(keyedBy: _FeedCodingKey.self)
            pages.append(Page(
                items: try entry.decode([Item].self, forKey: "items"),
                previous: try entry.decodeIfPresent(Cursor.self, forKey: "previous"),
                next: try entry.decodeIfPresent(Cursor.self, forKey: "next")))
        }
        try self.init(
            pages: pages,
            generation: try container.decode(UInt64.self, forKey: "generation"),
            anchorIndex: try container.decodeIfPresent(Int.self, forKey: "anchorIndex"),
            savedAt: savedAt)
    }
}
