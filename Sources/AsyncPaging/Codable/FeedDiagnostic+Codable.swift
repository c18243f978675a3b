/// JSON: `{"kind": "staleResultDiscarded", "side": "refresh", "attempt": 1, "succeeded": true}`,
/// `{"kind": "fetchCancelled", "side": "loadMore", "attempt": 1}`,
/// `{"kind": "duplicatesDropped", "side": "loadMore", "count": 3}`,
/// `{"kind": "retryScheduled", "side": "loadMore", "retryNumber": 1, "delay": {"seconds": 2, "attoseconds": 0}, "failure": {…}}`
/// (see ``FeedFailure``), `{"kind": "timedOut", "side": "refresh", "attempt": 2}`,
/// `{"kind": "pagesDropped", "side": "loadPrevious", "pages": 2, "items": 40}` or
/// `{"kind": "pagesKeptOverBound", "side": "loadPrevious", "itemCount": 1020}`. Durations
/// are exact: whole seconds and attoseconds, as `Duration.components`.
extension FeedDiagnostic: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        switch self {
        case .staleResultDiscarded(let side, let attempt, let succeeded):
            try container.encode("staleResultDiscarded", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(attempt, forKey: .attempt)
            try container.encode(succeeded, forKey: "succeeded")
        case .fetchCancelled(let side, let attempt):
            try container.encode("fetchCancelled", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(attempt, forKey: .attempt)
        case .duplicatesDropped(let side, let count):
            try container.encode("duplicatesDropped", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(count, forKey: "count")
        case .retryScheduled(let side, let retryNumber, let delay, let failure):
            try container.encode("retryScheduled", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(retryNumber, forKey: "retryNumber")
            try container.encode(_CodableDuration(delay), forKey: "delay")
            try container.encode(failure, forKey: .failure)
        case .timedOut(let side, let attempt):
            try container.encode("timedOut", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(attempt, forKey: .attempt)
        case .pagesDropped(let side, let pages, let items):
            try container.encode("pagesDropped", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(pages, forKey: "pages")
            try container.encode(items, forKey: "items")
        case .pagesKeptOverBound(let side, let itemCount):
            try container.encode("pagesKeptOverBound", forKey: .kind)
            try container.encode(side, forKey: .side)
            try container.encode(itemCount, forKey: "itemCount")
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        let kind = try container.decode(String.self, forKey: .kind)
        let side = try container.decode(FeedSide.self, forKey: .side)
        switch kind {
        case "staleResultDiscarded":
            self = .staleResultDiscarded(
                side: side, attempt: try container.decode(Int.self, forKey: .attempt),
                succeeded: try container.decode(Bool.self, forKey: "succeeded"))
        case "fetchCancelled":
            self = .fetchCancelled(side: side, attempt: try container.decode(Int.self, forKey: .attempt))
        case "duplicatesDropped":
            self = .duplicatesDropped(side: side, count: try container.decode(Int.self, forKey: "count"))
        case "retryScheduled":
            self = .retryScheduled(
                side: side, retryNumber: try container.decode(Int.self, forKey: "retryNumber"),
                delay: try container.decode(_CodableDuration.self, forKey: "delay").duration,
                failure: try container.decode(FeedFailure.self, forKey: .failure))
        case "timedOut":
            self = .timedOut(side: side, attempt: try container.decode(Int.self, forKey: .attempt))
        case "pagesDropped":
            self = .pagesDropped(
                side: side, pages: try container.decode(Int.self, forKey: "pages"),
                items: try container.decode(Int.self, forKey: "items"))
        case "pagesKeptOverBound":
            self = .pagesKeptOverBound(side: side, itemCount: try container.decode(Int.self, forKey: "itemCount"))
        default: throw container.unknownKind(kind, of: FeedDiagnostic.self)
        }
    }
}

/// A duration as `{"seconds": Int64, "attoseconds": Int64}`.
struct _CodableDuration: Codable {
    var seconds: Int64
    var attoseconds: Int64

    init(_ duration: Duration) {
        (seconds, attoseconds) = duration.components
    }

    var duration: Duration { Duration(secondsComponent: seconds, attosecondsComponent: attoseconds) }
}
