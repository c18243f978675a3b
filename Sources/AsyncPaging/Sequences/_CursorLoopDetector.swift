/// The repeated-cursor guard of the page sequences: it catches a source that loops, in memory that
/// does not grow with the pages read. (A feed keeps every cursor it fetched, ``_FollowedCursors``,
/// one per page it holds anyway; a sequence that streams a million items holds one page.)
///
/// Cursors are compared with `==` only (no hashing), against two groups of cursors followed:
///
/// - **The last ``recentCount``**: a `next` that names one of them — the page's own cursor, or a
///   loop of up to ``recentCount`` pages, what a source's bug usually makes — is caught at its
///   first repeat, as the feed's guard catches it.
/// - **Gosper's loop detector** (HAKMEM, item 132) over every cursor followed: slot `k` of
///   ``earlier`` holds the last cursor followed at a position `i` (counted from 0) whose `i + 1`
///   has `k` trailing zero bits, so slot `k` changes every `2^(k+1)` cursors and the slots hold
///   `log2` of the cursors followed, 14 after 10,000 pages. A source that loops through `λ` pages
///   (each cursor of the loop naming the same next every time) is caught before the loop has come
///   round twice: at most `λ - 1` pages after its first repeat, however many pages came before
///   the loop (`CursorLoopDetectorTests` checks the bound for loops of 1 to 4,097 pages).
///
/// Every repeat it reports is a real one (a cursor equal to one followed before); what it gives
/// up against an exact set is catching a single far repeat that does not loop (a cursor followed
/// again and then naming new cursors).
@usableFromInline struct _CursorLoopDetector<Cursor: Equatable>: Sendable where Cursor: Sendable {
    /// The last cursors followed, at most ``recentCount``, oldest overwritten first.
    @usableFromInline var recent: [Cursor] = []
    /// Where the next cursor goes in ``recent`` once it is full.
    @usableFromInline var recentSlot = 0
    /// Gosper's slots: `earlier[k]`, the last cursor followed at a position `i` with
    /// `(i + 1).trailingZeroBitCount == k`.
    @usableFromInline var earlier: [Cursor] = []
    /// The cursors followed so far.
    @usableFromInline var followedCount = 0

    /// How many of the last cursors are compared with every new one.
    @usableFromInline static var recentCount: Int { 8 }

    @inlinable init() {}

    /// Whether `cursor` equals a cursor the detector holds.
    @inlinable func contains(_ cursor: Cursor) -> Bool {
        recent.contains(cursor) || earlier.contains(cursor)
    }

    /// Records `cursor` as followed; `false` (and nothing recorded) when it repeats a cursor held.
    @inlinable mutating func insertIfNew(_ cursor: Cursor) -> Bool {
        if contains(cursor) { return false }
        if recent.count < Self.recentCount {
            recent.append(cursor)
        } else {
            recent[recentSlot] = cursor
            recentSlot = recentSlot == Self.recentCount - 1 ? 0 : recentSlot + 1
        }
        let slot = (followedCount &+ 1).trailingZeroBitCount
        if slot < earlier.count {
            earlier[slot] = cursor
        } else {
            earlier.append(cursor)
        }
        followedCount &+= 1
        return true
    }
}
