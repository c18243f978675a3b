import AsyncPaging
import AsyncPagingTesting

/// The item of the reliability tests: just an id, so that lists compare as `[Int]`.
struct FeedRow: Identifiable, Sendable, Hashable, CustomStringConvertible {
    let id: Int
    var description: String { "#\(id)" }
}

typealias RowSource = ScriptedPageSource<FeedRow, Int>
typealias RowFeed = FeedController<FeedRow, Int>

/// The error a scripted failure throws; `request` tells which request failed.
struct ScriptedFailure: Error, Hashable, CustomStringConvertible {
    var request: Int
    var description: String { "scripted failure of request \(request)" }
}

extension FeedSnapshot where Item == FeedRow {
    var ids: [Int] { map(\.id) }
}

/// Rows with `ids`, for pages.
func rows(_ ids: some Sequence<Int>) -> [FeedRow] { ids.map(FeedRow.init(id:)) }
