/// JSON: `{"version": 3, "generation": 1, "change": {…}, "items": [ … ]}` (see ``FeedChange``).
///
/// A decoded snapshot holds the items in a store of its own, as the controller's snapshots do;
/// it is a value for clients and tests (a controller never takes one in).
extension FeedSnapshot: Encodable where Item: Encodable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        try container.encode(version, forKey: "version")
        try container.encode(generation, forKey: "generation")
        try container.encode(change, forKey: "change")
        var items = container.nestedUnkeyedContainer(forKey: "items")
        for item in self { try items.encode(item) }
    }
}

extension FeedSnapshot: Decodable where Item: Decodable {
    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let items = try container.decode([Item].self, forKey: "items")
        var store = ItemStore<Item>()
        store.append(contentsOf: items)
        self.init(
            version: try container.decode(UInt64.self, forKey: "version"),
            generation: try container.decode(UInt64.self, forKey: "generation"),
            change: try container.decode(FeedChange.self, forKey: "change"),
            contents: store.contents)
    }
}
