import AsyncPaging
import Hummingbird

/// `GET /sessions/:session/items?from=N`: the list from index `from` on.
public struct ItemsResponse: ResponseCodable, Sendable {
    /// The snapshot's version.
    public var version: UInt64
    /// The snapshot's generation (a refresh starts a new one).
    public var generation: UInt64
    /// How many items the whole list has.
    public var count: Int
    /// The index of `items[0]` in the list.
    public var from: Int
    /// The items from `from` on.
    public var items: [FeedItem]
    /// The controller's status.
    public var status: FeedStatus
    /// The cursor of the next page, if any.
    public var nextCursor: String?
}

/// `POST /sessions/:session/{more,refresh,retry}` and the first page.
public struct CommandResponse: ResponseCodable, Sendable {
    /// What the request did.
    public var result: LoadResult
    /// How many items the list has now.
    public var count: Int
    /// The controller's status now.
    public var status: FeedStatus

    /// Creates the answer.
    public init(result: LoadResult, count: Int, status: FeedStatus) {
        self.result = result
        self.count = count
        self.status = status
    }
}

/// `GET /stats`.
public struct StatsResponse: ResponseCodable, Sendable {
    /// Sessions whose controller is open on this instance.
    public var sessions: Int
    /// Event streams being written by this instance.
    public var eventStreams: Int
    /// Sessions the store holds (absent without a store).
    public var savedSessions: Int?
}
