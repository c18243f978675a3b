import AsyncPaging
import AsyncPagingTesting
import Foundation

/// Posts encode as their id (a test of the engine's shapes, not of the post's).
extension Post: Codable {
    init(from decoder: any Decoder) throws {
        self.init(id: try decoder.singleValueContainer().decode(Int.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }
}

typealias PostState = FeedState<Post, Int>

enum RestoreFixtures {
    /// Page `index` of a two-ended feed of pages 0...9, 10 posts each: posts `10i..<10i+10`,
    /// `previous` `i - 1`, `next` `i + 1` (none before 0 or after 9).
    static func page(_ index: Int) -> Page<Post, Int> {
        Page(items: posts(index * 10..<index * 10 + 10), previous: index > 0 ? index - 1 : nil, next: index < 9 ? index + 1 : nil)
    }

    /// A source of those pages, answering after `latency` on the request's clock.
    static func source(latency: Duration = .zero) -> PostSource {
        PostSource { request in .page(page(request.cursor ?? 0), latency: latency) }
    }

    /// A valid state of pages `range`.
    static func state(
        _ range: ClosedRange<Int>, generation: UInt64 = 4, anchorIndex: Int? = nil, savedAt: Duration? = .zero
    ) -> PostState {
        do {
            return try PostState(pages: range.map(page), generation: generation, anchorIndex: anchorIndex, savedAt: savedAt)
        } catch {
            fatalError("fixture state is invalid: \(error)")
        }
    }

    static func json(_ state: PostState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state)
    }

    static func decode(_ json: String) throws -> PostState {
        try JSONDecoder().decode(PostState.self, from: Data(json.utf8))
    }

    /// A configuration with a bound, that cannot fail to build.
    static func configuration(maximumItems: Int? = nil, refreshMode: RefreshMode = .replace) -> FeedConfiguration {
        do {
            return try FeedConfiguration(pageSize: 10, refreshMode: refreshMode, maximumItems: maximumItems)
        } catch {
            fatalError("test configuration is invalid: \(error)")
        }
    }
}
