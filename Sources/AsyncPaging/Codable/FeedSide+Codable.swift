/// JSON: `"refresh"`, `"loadMore"` or `"loadPrevious"`.
extension FeedSide: Codable {}
