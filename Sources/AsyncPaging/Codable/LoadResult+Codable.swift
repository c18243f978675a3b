/// JSON: `{"side": "loadMore", "outcome": {…}, "joinedInFlightLoad": false}`; `side` is `null`
/// for an ignored request (see ``LoadOutcome``).
extension LoadResult: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        try container.encode(side, forKey: .side)
        try container.encode(outcome, forKey: "outcome")
        try container.encode(joinedInFlightLoad, forKey: "joinedInFlightLoad")
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        self.init(
            side: try container.decodeIfPresent(FeedSide.self, forKey: .side),
            outcome: try container.decode(LoadOutcome.self, forKey: "outcome"),
            joinedInFlightLoad: try container.decode(Bool.self, forKey: "joinedInFlightLoad"))
    }
}
