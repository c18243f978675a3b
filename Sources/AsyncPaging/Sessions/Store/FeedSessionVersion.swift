/// The version of a saved session: 1 after its first save, one more after each save.
///
/// Every write to a ``FeedSessionStore`` names the version it was made on
/// (`expectedVersion`); the store applies it only if that is still the saved version, and then
/// answers the new one. A write made on an older version lost a race with another writer and
/// is refused with ``FeedSessionStoreError/versionConflict(expected:found:)``: it is never
/// applied, so two instances cannot interleave their pages.
public struct FeedSessionVersion: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The version as a number (1 after the first save). A store keeps it as an unsigned
    /// 64-bit integer (PostgreSQL: a `bigint` holding the same bits, or a `numeric`).
    public let rawValue: UInt64

    /// The version of a session saved once.
    public static let first = FeedSessionVersion(rawValue: 1)

    /// Creates a version from its number.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The version after this one. At `UInt64.max` it stays there (2⁶⁴ − 1 saves are not
    /// reached; saturating keeps a corrupt number from trapping).
    public var next: FeedSessionVersion {
        FeedSessionVersion(rawValue: rawValue == .max ? .max : rawValue + 1)
    }

    /// Orders versions by number.
    public static func < (lhs: FeedSessionVersion, rhs: FeedSessionVersion) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Encodes as a bare number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Decodes a bare number.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(UInt64.self)
    }

    /// `v` and the number, e.g. `v7`.
    public var description: String { "v\(rawValue)" }
}
