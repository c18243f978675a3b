/// JSON: `{"kind": "idle"}`, `{"kind": "refreshing"}`, `{"kind": "loadingMore"}`,
/// `{"kind": "loadingPrevious"}`,
/// `{"kind": "endOfData"}`, `{"kind": "failed", "failure": {…}}` or `{"kind": "closed"}`.
extension FeedStatus: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .idle: try container.encode("idle", forKey: .kind)
        case .refreshing: try container.encode("refreshing", forKey: .kind)
        case .loadingMore: try container.encode("loadingMore", forKey: .kind)
        case .loadingPrevious: try container.encode("loadingPrevious", forKey: .kind)
        case .endOfData: try container.encode("endOfData", forKey: .kind)
        case .failed(let failure):
            try container.encode("failed", forKey: .kind)
            try container.encode(failure, forKey: .failure)
        case .closed: try container.encode("closed", forKey: .kind)
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "idle": self = .idle
        case "refreshing": self = .refreshing
        case "loadingMore": self = .loadingMore
        case "loadingPrevious": self = .loadingPrevious
        case "endOfData": self = .endOfData
        case "failed": self = .failed(try container.decode(FeedFailure.self, forKey: .failure))
        case "closed": self = .closed
        default: throw container.unknownKind(kind, of: FeedStatus.self)
        }
    }
}
