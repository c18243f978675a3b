/// Fetches pages for a ``FeedController``.
///
/// The controller calls ``page(for:)`` from a task of its own and cancels that task through
/// ordinary `Task` cancellation when the load is no longer wanted (a newer refresh, the other
/// side, a timeout, or ``FeedController/close()``). A source that ignores cancellation is
/// safe: whatever it returns late is discarded, never applied.
public protocol PageSource<Item, Cursor>: Sendable {
    /// The type of the feed's items.
    associatedtype Item: Sendable
    /// The type that identifies a page. `Hashable`, so that a repeated cursor is caught.
    associatedtype Cursor: Hashable & Sendable

    /// Fetches the page that `request` describes.
    ///
    /// Throw to report a failure; the controller keeps its list as it was and reports the
    /// error in its events, its status and the outcome of the call that started the load.
    func page(for request: PageRequest<Cursor>) async throws -> Page<Item, Cursor>
}

/// A ``PageSource`` made from a closure.
public struct ClosurePageSource<Item: Sendable, Cursor: Hashable & Sendable>: PageSource {
    @usableFromInline let fetch: @Sendable (PageRequest<Cursor>) async throws -> Page<Item, Cursor>

    /// Creates a source that calls `fetch` for every page.
    @inlinable public init(_ fetch: @escaping @Sendable (PageRequest<Cursor>) async throws -> Page<Item, Cursor>) {
        self.fetch = fetch
    }

    @inlinable public func page(for request: PageRequest<Cursor>) async throws -> Page<Item, Cursor> {
        try await fetch(request)
    }
}
