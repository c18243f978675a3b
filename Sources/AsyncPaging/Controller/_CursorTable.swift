/// The storage of ``_FollowedCursors``: an open-addressing hash table (linear probing) whose
/// memory the owner gets ready a slice at a time, before it is used.
///
/// A `Set` zeroes its occupancy bitmap when it is made and its elements land on fresh memory
/// pages at random: the page that made a set for 98,304 cursors spent ~9 µs in the kernel's page
/// faults, and the pages after it a fault per cursor moved in. This table is made of segments of
/// at most 64 KB (below malloc's threshold for a system call: a 2 MB block took 5–15 µs to map),
/// allocated by ``prepare(upTo:)`` as it clears their control bytes and touches their slots'
/// memory a slice at a time, so that by the time cursors are put in, every memory page is there.
///
/// Control bytes: 0 empty, 1 removed (only in a table that drains: see
/// ``_FollowedCursors/remove(_:)``), otherwise `0x80` or'ed with 7 bits of the hash. Not
/// `Sendable` by itself: ``_FollowedCursors`` copies it before writing when it is shared.
@usableFromInline final class _CursorTable<Cursor: Hashable> {
    @usableFromInline let bucketCount: Int
    /// Buckets per segment (a power of two), and its log2.
    @usableFromInline let segmentShift: Int
    /// Each segment: its slots, then its control bytes; `nil` until prepared.
    @usableFromInline let segments: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// (No dynamic exclusivity checks: the table is reached only through ``_FollowedCursors``,
    /// whose mutating methods hold it uniquely.)
    @exclusivity(unchecked) @usableFromInline var count = 0
    /// The buckets whose control bytes are cleared (and slots' memory touched): all of them once
    /// the table is ready.
    @exclusivity(unchecked) @usableFromInline var preparedCount = 0
    /// While the table drains: the next bucket to move to the live table.
    @exclusivity(unchecked) @usableFromInline var drainPosition = 0
    /// While the table is live and large: the table that will take over, being made ready
    /// (kept here, so that ``_FollowedCursors`` is two references: an idle feed pays 16 bytes).
    @exclusivity(unchecked) @usableFromInline var successor: _CursorTable?

    @usableFromInline static var empty: UInt8 { 0 }
    @usableFromInline static var removed: UInt8 { 1 }

    /// A table of `bucketCount` buckets (a power of two), not ready: call ``prepare(upTo:)``.
    @inlinable init(bucketCount: Int) {
        self.bucketCount = bucketCount
        var shift = 4
        while shift < 16 && (2 << shift) * (MemoryLayout<Cursor>.stride + 1) <= 65_536 { shift += 1 }
        segmentShift = min(shift, bucketCount.trailingZeroBitCount)
        let segmentCount = bucketCount >> segmentShift
        segments = .allocate(capacity: segmentCount)
        segments.initialize(repeating: nil, count: segmentCount)
    }

    deinit {
        if !_isPOD(Cursor.self) {
            for bucket in 0..<preparedCount where control(bucket).pointee >= 0x80 { slot(bucket).deinitialize(count: 1) }
        }
        for segment in 0..<(bucketCount >> segmentShift) { segments[segment]?.deallocate() }
        segments.deallocate()
    }

    @inlinable var isReady: Bool { preparedCount == bucketCount }
    /// Cursors it may hold: three quarters of its buckets.
    @inlinable var capacity: Int { bucketCount / 4 * 3 }

    @inlinable @inline(__always) func slot(_ bucket: Int) -> UnsafeMutablePointer<Cursor> {
        segments[bucket >> segmentShift].unsafelyUnwrapped.assumingMemoryBound(to: Cursor.self)
            + (bucket & ((1 << segmentShift) - 1))
    }

    @inlinable @inline(__always) func control(_ bucket: Int) -> UnsafeMutablePointer<UInt8> {
        let segmentBuckets = 1 << segmentShift
        return (segments[bucket >> segmentShift].unsafelyUnwrapped + segmentBuckets * MemoryLayout<Cursor>.stride)
            .assumingMemoryBound(to: UInt8.self) + (bucket & (segmentBuckets - 1))
    }

    /// Allocates the segments of the buckets up to `end`, clears their control bytes and writes
    /// a byte on every memory page of their slots, so that later writes find their pages there.
    @inlinable func prepare(upTo end: Int) {
        let end = min(end, bucketCount)
        let segmentBuckets = 1 << segmentShift
        let stride = MemoryLayout<Cursor>.stride
        while preparedCount < end {
            let segment = preparedCount >> segmentShift
            if segments[segment] == nil {
                let raw = UnsafeMutableRawPointer.allocate(
                    byteCount: segmentBuckets * (stride + 1), alignment: max(MemoryLayout<Cursor>.alignment, 16))
                raw.bindMemory(to: Cursor.self, capacity: segmentBuckets)
                (raw + segmentBuckets * stride).bindMemory(to: UInt8.self, capacity: segmentBuckets)
                segments[segment] = raw
            }
            let first = preparedCount & (segmentBuckets - 1)
            let last = min(segmentBuckets, first + (end - preparedCount))
            control(preparedCount).initialize(repeating: Self.empty, count: last - first)
            let raw = UnsafeMutableRawPointer(slot(preparedCount))
            var offset = 0
            while offset < (last - first) * stride {
                raw.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self) // uninitialized memory
                offset += 4_096
            }
            preparedCount += last - first
        }
    }

    @inlinable static func tag(_ hash: Int) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 57) | 0x80 }

    /// The cursor's hash: the one-shot form `Set` uses (an `Int`'s is one SipHash block, where
    /// `hashValue` goes through a `Hasher`).
    @inlinable static func hash(_ cursor: Cursor) -> Int { cursor._rawHashValue(seed: 0) }

    /// The bucket holding `cursor`, or `nil`.
    @inlinable func find(_ cursor: Cursor, hash: Int) -> Int? {
        let mask = bucketCount &- 1
        let tag = Self.tag(hash)
        var bucket = hash & mask
        let segmentBuckets = 1 << segmentShift
        while true {
            // One look-up of the segment for the control byte and the slot.
            let segment = segments[bucket >> segmentShift].unsafelyUnwrapped
            let offset = bucket & (segmentBuckets - 1)
            let control = segment.load(fromByteOffset: segmentBuckets * MemoryLayout<Cursor>.stride + offset, as: UInt8.self)
            if control == Self.empty { return nil }
            if control == tag && segment.assumingMemoryBound(to: Cursor.self)[offset] == cursor { return bucket }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Puts `cursor`, known to be absent, in; the table must be ready and below its capacity.
    @inlinable func insertNew(_ cursor: Cursor, hash: Int) {
        let mask = bucketCount &- 1
        let segmentBuckets = 1 << segmentShift
        let controlsOffset = segmentBuckets * MemoryLayout<Cursor>.stride
        var bucket = hash & mask
        while true {
            let segment = segments[bucket >> segmentShift].unsafelyUnwrapped
            let offset = bucket & (segmentBuckets - 1)
            if segment.load(fromByteOffset: controlsOffset + offset, as: UInt8.self) < 0x80 {
                segment.storeBytes(of: Self.tag(hash), toByteOffset: controlsOffset + offset, as: UInt8.self)
                (segment.assumingMemoryBound(to: Cursor.self) + offset).initialize(to: cursor)
                count += 1
                return
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Takes the cursor at `bucket` out, moving the cursors after it back (no removed marks:
    /// lookups stay as short as the table's load says).
    @inlinable func remove(at bucket: Int) {
        let mask = bucketCount &- 1
        slot(bucket).deinitialize(count: 1)
        var hole = bucket
        var next = (bucket &+ 1) & mask
        while control(next).pointee >= 0x80 {
            let home = Self.hash(slot(next).pointee) & mask
            // The cursor at `next` may move to `hole` when its home is not between them.
            if (next &- home) & mask >= (next &- hole) & mask {
                control(hole).pointee = control(next).pointee
                slot(hole).moveInitialize(from: slot(next), count: 1)
                hole = next
            }
            next = (next &+ 1) & mask
        }
        control(hole).pointee = Self.empty
        count -= 1
    }

    /// Marks the cursor at `bucket` removed, leaving the probes through it intact (a draining
    /// table, whose buckets are being read in order, never moves its cursors).
    @inlinable func markRemoved(at bucket: Int) {
        slot(bucket).deinitialize(count: 1)
        control(bucket).pointee = Self.removed
        count -= 1
    }

    /// A table holding the same cursors, ready.
    @inlinable func copy() -> _CursorTable {
        let copy = _CursorTable(bucketCount: bucketCount)
        copy.prepare(upTo: bucketCount)
        for bucket in 0..<preparedCount {
            let control = control(bucket).pointee
            copy.control(bucket).pointee = control
            if control >= 0x80 { copy.slot(bucket).initialize(to: slot(bucket).pointee) }
        }
        copy.count = count
        copy.drainPosition = drainPosition
        return copy // without the successor: made again when needed
    }
}
