/// The keys of the JSON shapes of the engine's value types (see the `Codable` extensions in
/// this folder). Enums with payloads encode as an object whose `"kind"` names the case.
@usableFromInline struct _FeedCodingKey: CodingKey, Hashable {
    @usableFromInline var stringValue: String
    @usableFromInline var intValue: Int? { nil }
    @usableFromInline init(stringValue: String) { self.stringValue = stringValue }
    @usableFromInline init?(intValue: Int) { nil }

    static let kind = _FeedCodingKey(stringValue: "kind")
    static let side = _FeedCodingKey(stringValue: "side")
    static let attempt = _FeedCodingKey(stringValue: "attempt")
    static let reason = _FeedCodingKey(stringValue: "reason")
    static let failure = _FeedCodingKey(stringValue: "failure")
    static let summary = _FeedCodingKey(stringValue: "summary")
}

extension _FeedCodingKey: ExpressibleByStringLiteral {
    @usableFromInline init(stringLiteral value: String) { self.init(stringValue: value) }
}

extension KeyedDecodingContainer where K == _FeedCodingKey {
    /// A `DecodingError` for an unknown `kind`.
    func unknownKind(_ kind: String, of type: Any.Type) -> DecodingError {
        .dataCorruptedError(forKey: .kind, in: self, debugDescription: "unknown \(type) kind \"\(kind)\"")
    }
}

/// Encodes and decodes a payload-less enum as one of the strings in `names`.
enum _NamedCases {
    static func encode<T: Equatable>(_ value: T, names: [(T, String)], to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard let name = names.first(where: { $0.0 == value })?.1 else {
            throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: "no name"))
        }
        try container.encode(name)
    }

    static func decode<T>(_ names: [(T, String)], from decoder: any Decoder) throws -> T {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = names.first(where: { $0.1 == name })?.0 else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "unknown \(T.self) \"\(name)\"; expected one of \(names.map(\.1))")
        }
        return value
    }
}
