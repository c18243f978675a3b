/// JSON: `{"kind": "completed"}`, `{"kind": "endOfData"}`,
/// `{"kind": "cancelled", "reason": "preemptedByRefresh"}` or
/// `{"kind": "failed", "failure": {…}}` (see ``FeedFailure``).
extension FeedEndReason: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .completed: try container.encode("completed", forKey: .kind)
        case .endOfData: try container.encode("endOfData", forKey: .kind)
        case .cancelled(let reason):
            try container.encode("cancelled", forKey: .kind)
            try container.encode(reason, forKey: .reason)
        case .failed(let failure):
            try container.encode("failed", forKey: .kind)
            try container.encode(failure, forKey: .failure)
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "completed": self = .completed
        case "endOfData": self = .endOfData
        case "cancelled": self = .cancelled(try container.decode(CancellationReason.self, forKey: .reason))
        case "failed": self = .failed(try container.decode(FeedFailure.self, forKey: .failure))
        default: throw container.unknownKind(kind, of: FeedEndReason.self)
        }
    }
}
