extension FeedStateMachine {
    /// What a machine uses only once it loads: the load slots, the edges, the failures, the
    /// page records, the landed page and the refetch's pages.
    ///
    /// Kept out of line, in one object made on the first write and kept from then on, so that a
    /// controller that never loaded (an idle session, one of many feeds on a screen) carries one
    /// reference instead of ~450 bytes (three slots of 96 bytes, two edges of 32, the page
    /// records, arrays and cursors, with `Int` cursors). A feed that loads allocates it once,
    /// not per load. Reading a machine without it reads the empty values.
    ///
    /// Copy on write keeps the machine a value: every write goes through
    /// ``FeedStateMachine/writableWorking()``, which copies the object first when another
    /// machine shares it.
    ///
    /// `@unchecked Sendable` is safe: the object is reached only through a machine's `working`,
    /// and is written only when that machine holds the only reference (``writableWorking()``),
    /// so an object that two machines share (after a copy, possibly on two threads) is only
    /// read. `@exclusivity(unchecked)` is safe for the same reason: every access is made through
    /// a machine's accessors, which are themselves accesses of the machine (a value, checked
    /// statically), and an object is never reached through two machines when written.
    @usableFromInline final class Working: @unchecked Sendable {
        /// The refresh in flight.
        @exclusivity(unchecked) @usableFromInline var refreshLoad: Load?
        /// The load in flight at the start of the list (load-previous).
        @exclusivity(unchecked) @usableFromInline var startLoad: Load?
        /// The load in flight at the end of the list (load-more).
        @exclusivity(unchecked) @usableFromInline var endLoad: Load?
        /// The start of the list: where a load-previous loads from, and whether it can.
        @exclusivity(unchecked) @usableFromInline var start: Edge = Edge()
        /// The end of the list: where a load-more loads from, and whether it can.
        @exclusivity(unchecked) @usableFromInline var end: Edge = Edge()
        /// The failures standing, oldest first, at most one per side: cleared by the side's next
        /// request or success (a load at an end also clears the refresh's; a refresh clears all).
        @exclusivity(unchecked) @usableFromInline var failures: [FeedFailure] = []
        /// The cursors of the empty pages that the load in flight at each end followed, until its
        /// page lands (kept apart from ``Load`` so that a load stays a plain value: an array in it
        /// made every copy of a load go through value witnesses, ~5,000 instructions a page).
        @exclusivity(unchecked) @usableFromInline var startFollowedEmpty: [Cursor] = []
        @exclusivity(unchecked) @usableFromInline var endFollowedEmpty: [Cursor] = []
        /// For a page whose load followed empty pages before it (rare), those pages' cursors, by
        /// the cursor that fetched the page: dropping the page for the bound forgets them too.
        @exclusivity(unchecked) @usableFromInline var emptyPagesBefore: [Cursor: [Cursor]] = [:]
        /// The list's pages, first to last: what the bound drops. Kept only with a bound
        /// (``keepsPages``): a record per page is ~3.6 bytes an item at 20 items a page, which an
        /// unbounded feed of a million items need not pay.
        @exclusivity(unchecked) @usableFromInline var pages: _PageRecords<Cursor> = _PageRecords<Cursor>()
        /// The page an ``Action/applyPage(_:_:)`` or ``Action/mergePageAtHead(_:)`` applies, until
        /// the controller takes it. It is held here rather than in the action: actions are copied
        /// as they are carried out, and with a page in them (an array and two cursors, generic)
        /// each copy went through value witnesses — about 9,000 more instructions a page, measured.
        @exclusivity(unchecked) @usableFromInline var landedPage: Page<Item, Cursor>?
        /// The cursor the last refresh started from, where `retry()` runs a failed refresh again.
        @exclusivity(unchecked) @usableFromInline var refreshOrigin: Cursor?
        /// The pages a refetch (``RefreshMode/refetchLoaded``) fetched so far, with the cursor each
        /// was fetched with, and how many it fetches in all; empty and 0 otherwise.
        @exclusivity(unchecked) @usableFromInline var refetched: [_RefetchedPage<Item, Cursor>] = []
        @exclusivity(unchecked) @usableFromInline var refetchPageCount: Int = 0
        /// Where ``FeedController/refresh()`` starts: `nil` (the first page of the data), or for a
        /// controller restored with ``RestoredRefreshStart/savedFirstPage`` the cursor its first
        /// page was fetched with. (Here, not in the controller: an idle controller need not carry
        /// it.)
        @exclusivity(unchecked) @usableFromInline var refreshStartCursor: Cursor?

        @inlinable init() {}

        @inlinable func copy() -> Working {
            let copy = Working()
            copy.refreshLoad = refreshLoad
            copy.startLoad = startLoad
            copy.endLoad = endLoad
            copy.start = start
            copy.end = end
            copy.failures = failures
            copy.startFollowedEmpty = startFollowedEmpty
            copy.endFollowedEmpty = endFollowedEmpty
            copy.emptyPagesBefore = emptyPagesBefore
            copy.pages = pages
            copy.landedPage = landedPage
            copy.refreshOrigin = refreshOrigin
            copy.refetched = refetched
            copy.refetchPageCount = refetchPageCount
            copy.refreshStartCursor = refreshStartCursor
            return copy
        }
    }

    /// The working state, made if there is none, and copied first if another machine shares it.
    @inlinable mutating func writableWorking() -> Working {
        if !isKnownUniquelyReferenced(&working) { working = working?.copy() ?? Working() }
        return working.unsafelyUnwrapped
    }

    // Each accessor reads through the reference (the empty value when there is none); a write
    // makes the object (an optional's `nil` written to a machine without one changes nothing);
    // `_modify` writes in place: a load is about a hundred bytes, and copies
    // out and back showed in the profile.

/// The refresh in flight.
    @inlinable var refreshLoad: Load? {
        get { working?.refreshLoad }
        set { if working != nil || newValue != nil { writableWorking().refreshLoad = newValue } }
        _modify { yield &writableWorking().refreshLoad }
    }

/// The load in flight at the start of the list (load-previous).
    @inlinable var startLoad: Load? {
        get { working?.startLoad }
        set { if working != nil || newValue != nil { writableWorking().startLoad = newValue } }
        _modify { yield &writableWorking().startLoad }
    }

/// The load in flight at the end of the list (load-more).
    @inlinable var endLoad: Load? {
        get { working?.endLoad }
        set { if working != nil || newValue != nil { writableWorking().endLoad = newValue } }
        _modify { yield &writableWorking().endLoad }
    }

/// The start of the list: where a load-previous loads from, and whether it can.
    @inlinable var start: Edge {
        get { working?.start ?? Edge() }
        set { writableWorking().start = newValue }
        _modify { yield &writableWorking().start }
    }

/// The end of the list: where a load-more loads from, and whether it can.
    @inlinable var end: Edge {
        get { working?.end ?? Edge() }
        set { writableWorking().end = newValue }
        _modify { yield &writableWorking().end }
    }

/// The failures standing, oldest first, at most one per side: cleared by the side's next
    /// request or success (a load at an end also clears the refresh's; a refresh clears all).
    @inlinable var failures: [FeedFailure] {
        get { working?.failures ?? [] }
        set { writableWorking().failures = newValue }
        _modify { yield &writableWorking().failures }
    }

/// The cursors of the empty pages that the load in flight at each end followed, until its
    /// page lands (kept apart from ``Load`` so that a load stays a plain value: an array in it
    /// made every copy of a load go through value witnesses, ~5,000 instructions a page).
    @inlinable var startFollowedEmpty: [Cursor] {
        get { working?.startFollowedEmpty ?? [] }
        set { writableWorking().startFollowedEmpty = newValue }
        _modify { yield &writableWorking().startFollowedEmpty }
    }

    /// See ``Working``.
    @inlinable var endFollowedEmpty: [Cursor] {
        get { working?.endFollowedEmpty ?? [] }
        set { writableWorking().endFollowedEmpty = newValue }
        _modify { yield &writableWorking().endFollowedEmpty }
    }

/// For a page whose load followed empty pages before it (rare), those pages' cursors, by
    /// the cursor that fetched the page: dropping the page for the bound forgets them too.
    @inlinable var emptyPagesBefore: [Cursor: [Cursor]] {
        get { working?.emptyPagesBefore ?? [:] }
        set { writableWorking().emptyPagesBefore = newValue }
        _modify { yield &writableWorking().emptyPagesBefore }
    }

/// The list's pages, first to last: what the bound drops. Kept only with a bound
    /// (``keepsPages``): a record per page is ~3.6 bytes an item at 20 items a page, which an
    /// unbounded feed of a million items need not pay.
    @inlinable var pages: _PageRecords<Cursor> {
        get { working?.pages ?? _PageRecords<Cursor>() }
        set { writableWorking().pages = newValue }
        _modify { yield &writableWorking().pages }
    }

/// The page an ``Action/applyPage(_:_:)`` or ``Action/mergePageAtHead(_:)`` applies, until
    /// the controller takes it. It is held here rather than in the action: actions are copied
    /// as they are carried out, and with a page in them (an array and two cursors, generic)
    /// each copy went through value witnesses — about 9,000 more instructions a page, measured.
    @inlinable var landedPage: Page<Item, Cursor>? {
        get { working?.landedPage }
        set { if working != nil || newValue != nil { writableWorking().landedPage = newValue } }
        _modify { yield &writableWorking().landedPage }
    }

/// The cursor the last refresh started from, where `retry()` runs a failed refresh again.
    @inlinable var refreshOrigin: Cursor? {
        get { working?.refreshOrigin }
        set { if working != nil || newValue != nil { writableWorking().refreshOrigin = newValue } }
        _modify { yield &writableWorking().refreshOrigin }
    }

/// The pages a refetch (``RefreshMode/refetchLoaded``) fetched so far, with the cursor each
    /// was fetched with, and how many it fetches in all; empty and 0 otherwise.
    @inlinable var refetched: [_RefetchedPage<Item, Cursor>] {
        get { working?.refetched ?? [] }
        set { writableWorking().refetched = newValue }
        _modify { yield &writableWorking().refetched }
    }

    /// See ``Working``.
    @inlinable var refetchPageCount: Int {
        get { working?.refetchPageCount ?? 0 }
        set { writableWorking().refetchPageCount = newValue }
        _modify { yield &writableWorking().refetchPageCount }
    }

    /// See ``Working/refreshStartCursor``.
    @inlinable var refreshStartCursor: Cursor? {
        get { working?.refreshStartCursor }
        set { if working != nil || newValue != nil { writableWorking().refreshStartCursor = newValue } }
    }
}
