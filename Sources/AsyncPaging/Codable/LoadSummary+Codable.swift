/// JSON: `{"itemsApplied": 15, "droppedDuplicates": 0, "reachedEnd": false}`.
extension LoadSummary: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        try container.encode(itemsApplied, forKey: "itemsApplied")
        try container.encode(droppedDuplicates, forKey: "droppedDuplicates")
        try container.encode(reachedEnd, forKey: "reachedEnd")
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        self.init(
            itemsApplied: try container.decode(Int.self, forKey: "itemsApplied"),
            droppedDuplicates: try container.decode(Int.self, forKey: "droppedDuplicates"),
            reachedEnd: try container.decode(Bool.self, forKey: "reachedEnd"))
    }
}
