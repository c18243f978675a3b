/// JSON: `{"refresh": {…}, "loadPrevious": {…}, "loadMore": {…}}`, each a ``FeedLoadState``.
extension FeedLoadStates: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        for side in FeedSide.allCases { try container.encode(self[side], forKey: _FeedCodingKey(stringValue: side.rawValue)) }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        func state(_ side: FeedSide) throws -> FeedLoadState {
            try container.decode(FeedLoadState.self, forKey: _FeedCodingKey(stringValue: side.rawValue))
        }
        self.init(refresh: try state(.refresh), loadPrevious: try state(.loadPrevious), loadMore: try state(.loadMore))
    }
}
