/// Fetches pages for a ``FeedController``.
///
/// The controller calls ``page(for:)`` from a task of its own and cancels that task through
/// ordinary `Task` cancellation when the load is no longer wanted (a newer refresh, the other
/// side, a timeout, or ``FeedController/close()``). A source that ignores cancellation is
/// safe: whatever it returns late is discarded, never applied.
///
/// The task starts with `Task.immediate` (where the platform has it: Linux, and Apple systems
/// from the 2025 releases): it runs on the controller's thread, while the controller is busy,
/// until the source first suspends. A source that answers without suspending (a cache, a page
/// in memory) therefore costs no thread hop at all, and one that does real I/O suspends at its
/// first `await` and runs on as an ordinary task. Keep the synchronous work before that first
/// `await` short, and never block in it: the controller answers nothing else meanwhile.
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

    /// Fetches the page by calling the closure with `request`.
    @inlinable public func page(for request: PageRequest<Cursor>) async throws -> Page<Item, Cursor> {
        try await fetch(request)
    }
}
