/// JSON: `{"removedAtStart": 20, "insertedAtStart": 0, "insertedAtEnd": 20, "removedAtEnd": 0}`.
/// A missing or negative count is a `DecodingError`.
extension FeedEndsChange: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        try encode(into: &container)
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder.container(keyedBy: _FeedCodingKey.self))
    }

    func encode(into container: inout KeyedEncodingContainer<_FeedCodingKey>) throws {
        try container.encode(removedAtStart, forKey: "removedAtStart")
        try container.encode(insertedAtStart, forKey: "insertedAtStart")
        try container.encode(insertedAtEnd, forKey: "insertedAtEnd")
        try container.encode(removedAtEnd, forKey: "removedAtEnd")
    }

    init(from container: KeyedDecodingContainer<_FeedCodingKey>) throws {
        func count(_ key: _FeedCodingKey) throws -> Int {
            let value = try container.decode(Int.self, forKey: key)
            guard value >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "negative count \(value)")
            }
            return value
        }
        self.init(
            removedAtStart: try count("removedAtStart"), insertedAtStart: try count("insertedAtStart"),
            insertedAtEnd: try count("insertedAtEnd"), removedAtEnd: try count("removedAtEnd"))
    }
}
