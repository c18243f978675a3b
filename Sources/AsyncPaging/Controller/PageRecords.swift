/// One page of the list, as the machine remembers it: how many of its items are in the list
/// and the cursors that lead on from it and to it.
///
/// The bound (``FeedConfiguration/maximumItems``) drops whole pages with these records, and
/// export (issue 13) writes the list page by page from them.
@usableFromInline struct _PageRecord<Cursor: Hashable & Sendable>: Equatable, Sendable {
    /// The page's items in the list (its duplicates were left out).
    @usableFromInline var itemCount: Int
    /// The cursor of the page before this one; `nil`: none.
    @usableFromInline var previous: Cursor?
    /// The cursor of the page after this one; `nil`: none.
    @usableFromInline var next: Cursor?
    /// The cursor this page was fetched with (`nil`: the first page of the data). The cursors
    /// of the empty pages its load followed before it, if any, are in the machine's
    /// `emptyPagesBefore` (a record stays a plain value for plain cursors).
    @usableFromInline let fetchedWith: Cursor?

    @inlinable init(itemCount: Int, previous: Cursor?, next: Cursor?, fetchedWith: Cursor?) {
        self.itemCount = itemCount
        self.previous = previous
        self.next = next
        self.fetchedWith = fetchedWith
    }
}

/// The records of the list's pages, first to last: added and removed at both ends in O(1)
/// (amortized), read by position.
///
/// Two arrays, like the item store: `back` holds the pages from the first page loaded onward;
/// `front` the pages prepended before them, nearest first. Pages removed from an array's start
/// leave a gap (`frontGap`, `backGap`) that is closed when it is half the array.
@usableFromInline struct _PageRecords<Cursor: Hashable & Sendable>: Sendable, RandomAccessCollection {
    @usableFromInline var front: [_PageRecord<Cursor>] = []
    @usableFromInline var frontGap = 0
    @usableFromInline var back: [_PageRecord<Cursor>] = []
    @usableFromInline var backGap = 0
    /// The items of every page.
    @usableFromInline var itemCount = 0

    @inlinable init() {}

    @inlinable var startIndex: Int { 0 }
    @inlinable var endIndex: Int { front.count - frontGap + back.count - backGap }
    @inlinable var frontCount: Int { front.count - frontGap }

    /// The record of the page at `position`, first page 0.
    @inlinable subscript(position: Int) -> _PageRecord<Cursor> {
        get {
            position < frontCount ? front[front.count - 1 - position] : back[backGap + position - frontCount]
        }
        set {
            itemCount += newValue.itemCount - self[position].itemCount
            if position < frontCount {
                front[front.count - 1 - position] = newValue
            } else {
                back[backGap + position - frontCount] = newValue
            }
        }
    }

    @inlinable mutating func append(_ record: _PageRecord<Cursor>) {
        itemCount += record.itemCount
        back.append(record)
    }

    @inlinable mutating func prepend(_ record: _PageRecord<Cursor>) {
        itemCount += record.itemCount
        front.append(record)
    }

    @inlinable mutating func removeFirst() -> _PageRecord<Cursor> {
        let record: _PageRecord<Cursor>
        if frontCount > 0 {
            record = front.removeLast()
            if front.count == frontGap { Self.closeGapIfLarge(&front, gap: &frontGap) }
        } else {
            record = back[backGap]
            backGap += 1
            Self.closeGapIfLarge(&back, gap: &backGap)
        }
        itemCount -= record.itemCount
        return record
    }

    @inlinable mutating func removeLast() -> _PageRecord<Cursor> {
        let record: _PageRecord<Cursor>
        if back.count > backGap {
            record = back.removeLast()
            if back.count == backGap { Self.closeGapIfLarge(&back, gap: &backGap) }
        } else {
            record = front[frontGap]
            frontGap += 1
            Self.closeGapIfLarge(&front, gap: &frontGap)
        }
        itemCount -= record.itemCount
        return record
    }

    @inlinable mutating func removeAll() {
        self = _PageRecords()
    }

    @inlinable static func closeGapIfLarge(_ records: inout [_PageRecord<Cursor>], gap: inout Int) {
        if gap == records.count {
            records.removeAll(keepingCapacity: true)
            gap = 0
        } else if gap >= 16 && gap * 2 >= records.count {
            records.removeFirst(gap)
            gap = 0
        }
    }
}
