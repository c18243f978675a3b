/// JSON: `"refresh"` or `"loadMore"`.
extension FeedSide: Codable {}
