/// A client's session id, as it appears in `/sessions/:session/…`: 1 to ``maximumLength``
/// characters from `A–Z a–z 0–9 - _ . ~` (the URL's unreserved characters, so an id needs no
/// percent-encoding and is the same text in a path, a log line and a database row).
///
/// Anything else — an empty or longer id, a percent-encoded byte (`%00`, `%FF`), a space, a
/// non-ASCII character — is refused with 400 and ``ServiceError/Kind/invalidSessionID``
/// before any session is looked up or created.
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The longest id accepted, in characters (bytes: every accepted character is ASCII).
    public static let maximumLength = 128

    /// The id's text.
    public let rawValue: String

    /// Validates `text` as a session id.
    /// - Throws: ``ServiceError`` (400, ``ServiceError/Kind/invalidSessionID``) saying what is wrong.
    public init(validating text: String) throws(ServiceError) {
        let bytes = text.utf8
        guard !bytes.isEmpty else { throw ServiceError(.invalidSessionID, "a session id must not be empty") }
        guard bytes.count <= Self.maximumLength else {
            throw ServiceError(.invalidSessionID, "a session id has at most \(Self.maximumLength) characters, not \(bytes.count)")
        }
        guard bytes.allSatisfy(Self.isAllowed) else {
            throw ServiceError(.invalidSessionID, "a session id uses only A-Z, a-z, 0-9, '-', '_', '.' and '~'")
        }
        rawValue = text
    }

    /// The id's text.
    public var description: String { rawValue }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
