import AsyncPaging

/// The in-process stand-in for an upstream API: `totalItems` items, newest first (ids
/// `totalItems` down to 1); the cursor is the id of the last item handed out, as text. Each
/// page waits `latency` on the controller's clock first.
public struct FakeFeedAPI: PageSource {
    public let totalItems: Int
    public let latency: Duration

    public init(totalItems: Int, latency: Duration = .zero) {
        self.totalItems = totalItems
        self.latency = latency
    }

    public func page(for request: PageRequest<String>) async throws -> Page<FeedItem, String> {
        if latency > .zero { try await request.clock.sleep(for: latency) }
        let below = request.cursor.flatMap(Int.init) ?? (totalItems + 1)
        let first = below - 1
        let last = max(1, below - request.pageSize)
        guard first >= 1 else { return Page(items: [], next: nil) }
        let items = (last...first).reversed().map { FeedItem(id: $0, title: "item \($0)") }
        return Page(items: items, next: last > 1 ? String(last) : nil)
    }
}
