/// JSON of one side's state: `{"kind": "idle"}`, `{"kind": "loading"}`,
/// `{"kind": "failed", "failure": {…}}` or `{"kind": "reachedEnd"}`.
extension FeedLoadState: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .idle: try container.encode("idle", forKey: .kind)
        case .loading: try container.encode("loading", forKey: .kind)
        case .failed(let failure):
            try container.encode("failed", forKey: .kind)
            try container.encode(failure, forKey: .failure)
        case .reachedEnd: try container.encode("reachedEnd", forKey: .kind)
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "idle": self = .idle
        case "loading": self = .loading
        case "failed": self = .failed(try container.decode(FeedFailure.self, forKey: .failure))
        case "reachedEnd": self = .reachedEnd
        default: throw container.unknownKind(kind, of: FeedLoadState.self)
        }
    }
}
