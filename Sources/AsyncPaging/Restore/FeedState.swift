/// A feed's list as a value: its pages with their cursors, its generation, where the user was
/// (a scroll anchor) and when it was saved — what an app writes before it is killed in the
/// background, or what a service hands to another instance, to show the same list again.
///
/// ``FeedController/exportState(anchorIndex:savedBy:)`` makes one from a controller; a
/// controller created with `restoring:` shows it at once and then refreshes or not by a
/// ``RestorePolicy``. It is `Codable` when `Item` and `Cursor` are (the JSON shape is on the
/// `Codable` extension).
///
/// The state is validated when it is made, so a value always restores: at least one page,
/// every page after the first follows a page with a `next`, no cursor fetches two pages, and
/// the anchor is an index of the items (else ``FeedStateError``). The ends need no flags: the
/// list starts at the start of the data when its first page has no `previous`, and ends at the
/// end of the data when its last page has no `next`.
public struct FeedState<Item: Sendable, Cursor: Hashable & Sendable>: Sendable {
    /// The version of the JSON shape this library writes (`"format"`); decoding another is a
    /// `DecodingError`.
    public static var formatVersion: Int { 1 }

    /// The pages of the list, first to last, each with its items and both cursors.
    public let pages: [Page<Item, Cursor>]
    /// The list's generation (``FeedSnapshot/generation``): the restored controller's first
    /// snapshot has it, and its next refresh makes the one after.
    public let generation: UInt64
    /// The index, in the list of all the pages' items, of the item the UI showed at the top;
    /// `nil` when none was reported.
    public let anchorIndex: Int?
    /// When the state was saved, on an ``EpochClock`` (``WallClock`` by default); `nil` when
    /// unknown, which ``RestorePolicy/ifOlderThan(_:clock:)`` counts as stale.
    public let savedAt: Duration?
    /// The number of items in all the pages.
    public let itemCount: Int

    /// Creates a state, checking that it can be restored.
    /// - Parameters:
    ///   - pages: The pages, first to last. Page `k > 0` is taken to have been fetched with
    ///     the `next` of page `k - 1`, and the first page with the `previous` of the second.
    ///   - generation: The list's generation.
    ///   - anchorIndex: The index of the item at the top of the screen, if any.
    ///   - savedAt: When the state was saved, on an ``EpochClock``. A time beyond ±`Int64.max`
    ///     seconds (which the JSON shape cannot hold) is saturated to that.
    /// - Throws: ``FeedStateError`` when the pages are not one list that can be restored.
    @inlinable public init(
        pages: [Page<Item, Cursor>], generation: UInt64 = 1, anchorIndex: Int? = nil, savedAt: Duration? = nil
    ) throws(FeedStateError) {
        guard !pages.isEmpty else { throw .noPages }
        var fetched = Set<Cursor>()
        var itemCount = 0
        for (index, page) in pages.enumerated() {
            itemCount += page.items.count
            if let cursor = Self.fetchedCursor(ofPageAt: index, in: pages) {
                guard fetched.insert(cursor).inserted else {
                    throw .repeatedCursor(pageIndex: index, cursor: "\(cursor)")
                }
            } else if index > 0 {
                throw .pageAfterEnd(pageIndex: index)
            }
        }
        if let anchorIndex, !(0..<itemCount).contains(anchorIndex) {
            throw .anchorOutOfRange(index: anchorIndex, itemCount: itemCount)
        }
        self.pages = pages
        self.generation = generation
        self.anchorIndex = anchorIndex
        self.savedAt = savedAt.map { Swift.min(Swift.max($0, .seconds(Int64.min)), .seconds(Int64.max)) }
        self.itemCount = itemCount
    }

    /// The items of all the pages, first to last (made on each call: O(items)).
    public var items: [Item] {
        var items: [Item] = []
        items.reserveCapacity(itemCount)
        for page in pages { items.append(contentsOf: page.items) }
        return items
    }

    /// The item at ``anchorIndex``, if any (O(pages)).
    public var anchorItem: Item? {
        guard var index = anchorIndex else { return nil }
        for page in pages {
            if index < page.items.count { return page.items[index] }
            index -= page.items.count
        }
        return nil
    }

    /// The cursor page `index` was fetched with, as a restore takes it: the `next` of the page
    /// before; for the first page, the `previous` of the second (`nil`: none known, the first
    /// page of the data or a single page). `nil` for an index outside the pages.
    public func fetchedCursor(ofPageAt index: Int) -> Cursor? {
        guard pages.indices.contains(index) else { return nil }
        return Self.fetchedCursor(ofPageAt: index, in: pages)
    }

    /// The cursor page `index` of `pages` was fetched with, as a restore takes it: the `next`
    /// of the page before; for the first page, the `previous` of the second (`nil`: none known,
    /// the first page of the data or a single page).
    @inlinable static func fetchedCursor(ofPageAt index: Int, in pages: [Page<Item, Cursor>]) -> Cursor? {
        if index > 0 { return pages[index - 1].next }
        return pages.count > 1 ? pages[1].previous : nil
    }
}

extension FeedState where Item: Identifiable {
    /// Creates a state whose scroll anchor is the first item with id `anchorID`, found by a
    /// linear search (O(items)); an id not in the pages (or `nil`) saves no anchor.
    /// - Throws: ``FeedStateError`` when the pages are not one list that can be restored.
    public init(
        pages: [Page<Item, Cursor>], generation: UInt64 = 1, anchorID: Item.ID?, savedAt: Duration? = nil
    ) throws(FeedStateError) {
        var anchorIndex: Int?
        if let anchorID {
            var offset = 0
            for page in pages {
                if let found = page.items.firstIndex(where: { $0.id == anchorID }) {
                    anchorIndex = offset + found
                    break
                }
                offset += page.items.count
            }
        }
        try self.init(pages: pages, generation: generation, anchorIndex: anchorIndex, savedAt: savedAt)
    }
}

extension FeedState: Equatable where Item: Equatable {}
