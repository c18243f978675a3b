/// JSON: `{"kind": "initial"}`, `{"kind": "replaced"}`,
/// `{"kind": "appended", "lowerBound": 15, "upperBound": 30}`,
/// `{"kind": "prepended", "lowerBound": 0, "upperBound": 20}` or
/// `{"kind": "extended", "prepended": {"lowerBound": 0, "upperBound": 20}, "appended": {…}}` or
/// `{"kind": "ends", "removedAtStart": 20, "insertedAtStart": 0, "insertedAtEnd": 20, "removedAtEnd": 0}`
/// (see ``FeedEndsChange``), `{"kind": "updated", "indices": [3, 7]}` or
/// `{"kind": "removed", "indices": [3]}` or `{"kind": "reloaded", "from": 5000, "to": 12}` (`to`
/// left out when the anchor's item is not in the new list). A range whose bounds are reversed or negative, or a negative count,
/// is a `DecodingError`.
extension FeedChange: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .initial: try container.encode("initial", forKey: .kind)
        case .replaced: try container.encode("replaced", forKey: .kind)
        case .appended(let range):
            try container.encode("appended", forKey: .kind)
            try Self.encode(range, into: &container)
        case .prepended(let range):
            try container.encode("prepended", forKey: .kind)
            try Self.encode(range, into: &container)
        case .extended(let prepended, let appended):
            try container.encode("extended", forKey: .kind)
            var prependedContainer = container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "prepended")
            try Self.encode(prepended, into: &prependedContainer)
            var appendedContainer = container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "appended")
            try Self.encode(appended, into: &appendedContainer)
        case .ends(let change):
            try container.encode("ends", forKey: .kind)
            try change.encode(into: &container)
        case .updated(let indices):
            try container.encode("updated", forKey: .kind)
            try container.encode(indices, forKey: "indices")
        case .removed(let indices):
            try container.encode("removed", forKey: .kind)
            try container.encode(indices, forKey: "indices")
        case .reloaded(let move):
            try container.encode("reloaded", forKey: .kind)
            try container.encode(move.from, forKey: "from")
            try container.encodeIfPresent(move.to, forKey: "to")
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "initial": self = .initial
        case "replaced": self = .replaced
        case "appended": self = .appended(try Self.decodeRange(from: container))
        case "prepended": self = .prepended(try Self.decodeRange(from: container))
        case "extended":
            self = .extended(
                prepended: try Self.decodeRange(from: container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "prepended")),
                appended: try Self.decodeRange(from: container.nestedContainer(keyedBy: _FeedCodingKey.self, forKey: "appended")))
        case "ends": self = .ends(try FeedEndsChange(from: container))
        case "updated": self = .updated(try Self.decodeIndices(from: container))
        case "removed": self = .removed(try Self.decodeIndices(from: container))
        case "reloaded":
            let from = try container.decode(Int.self, forKey: "from")
            let to = try container.decodeIfPresent(Int.self, forKey: "to")
            guard from >= 0, (to ?? 0) >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: "from", in: container, debugDescription: "negative anchor index: \(from), \(to.map(String.init) ?? "nil")")
            }
            self = .reloaded(FeedAnchorMove(from: from, to: to))
        default: throw container.unknownKind(kind, of: FeedChange.self)
        }
    }

    static func encode(_ range: Range<Int>, into container: inout KeyedEncodingContainer<_FeedCodingKey>) throws {
        try container.encode(range.lowerBound, forKey: "lowerBound")
        try container.encode(range.upperBound, forKey: "upperBound")
    }

    /// Ascending, non-negative indices; anything else is a `DecodingError`.
    static func decodeIndices(from container: KeyedDecodingContainer<_FeedCodingKey>) throws -> [Int] {
        let indices = try container.decode([Int].self, forKey: "indices")
        guard indices.first.map({ $0 >= 0 }) ?? true, zip(indices, indices.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: "indices", in: container, debugDescription: "indices must ascend from 0 or more: \(indices)")
        }
        return indices
    }

    static func decodeRange(from container: KeyedDecodingContainer<_FeedCodingKey>) throws -> Range<Int> {
        let lower = try container.decode(Int.self, forKey: "lowerBound")
        let upper = try container.decode(Int.self, forKey: "upperBound")
        guard lower >= 0, lower <= upper else {
            throw DecodingError.dataCorruptedError(
                forKey: "upperBound", in: container, debugDescription: "invalid range \(lower)..<\(upper)")
        }
        return lower..<upper
    }
}
