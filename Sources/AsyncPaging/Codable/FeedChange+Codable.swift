/// JSON: `{"kind": "initial"}`, `{"kind": "replaced"}` or
/// `{"kind": "appended", "lowerBound": 15, "upperBound": 30}`. An appended range whose bounds
/// are reversed or negative is a `DecodingError`.
extension FeedChange: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .initial: try container.encode("initial", forKey: .kind)
        case .replaced: try container.encode("replaced", forKey: .kind)
        case .appended(let range):
            try container.encode("appended", forKey: .kind)
            try container.encode(range.lowerBound, forKey: "lowerBound")
            try container.encode(range.upperBound, forKey: "upperBound")
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "initial": self = .initial
        case "replaced": self = .replaced
        case "appended":
            let lower = try container.decode(Int.self, forKey: "lowerBound")
            let upper = try container.decode(Int.self, forKey: "upperBound")
            guard lower >= 0, lower <= upper else {
                throw DecodingError.dataCorruptedError(
                    forKey: "upperBound", in: container, debugDescription: "invalid range \(lower)..<\(upper)")
            }
            self = .appended(lower..<upper)
        default: throw container.unknownKind(kind, of: FeedChange.self)
        }
    }
}
