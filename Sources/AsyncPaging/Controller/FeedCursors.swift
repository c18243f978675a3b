/// The cursors at the two ends of a feed's current list, as ``FeedController/cursors`` reports
/// them: what a service hands its client so that the client can page on (or resume) later.
public struct FeedCursors<Cursor: Hashable & Sendable>: Sendable, Hashable {
    /// The cursor of the page before the list's first page; `nil` before the first page and
    /// when the list starts at the beginning of the data.
    public var previous: Cursor?
    /// The cursor of the page after the list's last page; `nil` before the first page and at
    /// the end of the data.
    public var next: Cursor?
    /// Whether the last page has been loaded.
    public var reachedEnd: Bool
    /// Whether the first page of the data has been loaded (the list's first page has no
    /// `previous`).
    public var reachedStart: Bool

    /// Creates a cursor pair.
    public init(previous: Cursor?, next: Cursor?, reachedEnd: Bool, reachedStart: Bool = false) {
        self.previous = previous
        self.next = next
        self.reachedEnd = reachedEnd
        self.reachedStart = reachedStart
    }
}

/// JSON: `{"previous": …, "next": …, "reachedEnd": false, "reachedStart": true}`; the cursors
/// may be absent (`nil`), and so may `reachedStart` (JSON written before it existed), which then
/// decodes as `false`.
extension FeedCursors: Codable where Cursor: Codable {
    enum CodingKeys: String, CodingKey { case previous, next, reachedEnd, reachedStart }

    /// Decodes the JSON shape documented on this extension.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        previous = try container.decodeIfPresent(Cursor.self, forKey: .previous)
        next = try container.decodeIfPresent(Cursor.self, forKey: .next)
        reachedEnd = try container.decode(Bool.self, forKey: .reachedEnd)
        reachedStart = try container.decodeIfPresent(Bool.self, forKey: .reachedStart) ?? false
    }
}
