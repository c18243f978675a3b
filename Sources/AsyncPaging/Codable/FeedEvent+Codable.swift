/// JSON: `{"kind": "began", "side": "refresh"}` or
/// `{"kind": "ended", "side": "loadMore", "reason": {…}}` (see ``FeedEndReason``).
extension FeedEvent: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .began(let side):
            try container.encode("began", forKey: .kind)
            try container.encode(side, forKey: .side)
        case .ended(let side, let reason):
            try container.encode("ended", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        let side = try container.decode(FeedSide.self, forKey: .side)
        switch kind {
        case "began": self = .began(side)
        case "ended": self = .ended(side, try container.decode(FeedEndReason.self, forKey: .reason))
        default: throw container.unknownKind(kind, of: FeedEvent.self)
        }
    }
}
