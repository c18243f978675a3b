/// A set of keys that grows without a stall: the ids of a feed's items, for the duplicate filter.
///
/// An open-addressing hash table (linear probing, one tag byte per bucket holding 7 bits of the
/// hash so that most mismatches are rejected without comparing keys). When it is three
/// quarters full it does not rehash every key at once, as `Set` does (a feed of a million items
/// paid ~46 M instructions on the page that grew it): it allocates a table twice as large for
/// new keys and moves the keys of the old one over a few buckets at a time, on each insert
/// (``_bucketsDrainedPerInsert``). Lookups search both tables while the old one drains. The old
/// table is always empty before the next growth: it holds at most ¾ C keys over C buckets and
/// drains in C / 8 inserts, while the new table (2 C buckets) grows again only after ¾ C more.
/// The duplicate filter takes a page's share of this work once, after the page's inserts
/// (``_insertDeferringGrowthStep(_:)``, ``_stepGrowth(inserts:)``), which delays it by at most
/// a page (a page of more keys than the table holds, a large first page, makes the growth
/// finish the draining and the preparing at once: work in proportion to that page).
///
/// The larger table is made ready before it is needed, so that the insert that grows the index
/// does not pay for it either: once the live table is five eighths full, the next table is
/// allocated and each insert zeroes the tags of ``_IdentityIndexState/_bucketsPreparedPerInsert`` of its buckets
/// (and touches their key memory, so that the system maps its pages in then, not all at once
/// when the keys move in). The window from five eighths to three quarters is C / 8 inserts, which
/// prepare 4 C buckets: twice the 2 C needed. (Zeroing 2 MB of tags in one `memset` when the
/// table grew at ~786,000 items was the slowest page of a million, ~1.5 ms.)
///
/// Removing a key from the live table shifts the keys after it back (no tombstones, so a feed
/// that keeps dropping pages keeps short probe runs); removing from the draining table leaves a
/// tombstone, which drains with the rest.
///
/// Not thread-safe: the controller owns it (actor-isolated state).
@usableFromInline
class _IdentityIndex<Key: Hashable> {
    /// The index's state, behind a pointer: the class owns it, and reaching it through a
    /// pointer costs no dynamic exclusivity check (a class's stored `var`s would cost one per
    /// access, ~100 instructions, measured). The index is used from one isolation domain only
    /// (the controller's), so accesses cannot overlap.
    @usableFromInline final let _state: UnsafeMutablePointer<_IdentityIndexState<Key>>

    @inlinable init() {
        _state = .allocate(capacity: 1)
        _state.initialize(to: _IdentityIndexState())
    }

    deinit {
        _state.pointee.removeAll()
        _state.deinitialize(count: 1)
        _state.deallocate()
    }

    /// The number of keys.
    @inlinable final var count: Int { _state.pointee.count }

    /// Whether a table is still being drained into a larger one (for tests).
    @inlinable final var _isGrowing: Bool { _state.pointee._draining.count > 0 }

    /// The buckets allocated, in both tables (for tests and memory figures).
    @inlinable final var _bucketCount: Int { _state.pointee._live.bucketCount + _state.pointee._draining.bucketCount }

    /// The table being drained (for tests).
    @inlinable final var _draining: _IdentityIndexTable<Key> { _state.pointee._draining }

    /// Whether `key` is in the index.
    @inlinable final func contains(_ key: Key) -> Bool { _state.pointee.contains(key) }

    /// Inserts `key`; `false` if it was already there.
    @inlinable @discardableResult final func insert(_ key: Key) -> Bool { _state.pointee.insert(key) }

    /// Inserts `key` (`false` if it was already there) but leaves the insert's share of a
    /// growth to ``_stepGrowth(inserts:)``, which a loop of inserts calls once after it (the
    /// duplicate filter, once per page).
    @inlinable @inline(__always) final func _insertDeferringGrowthStep(_ key: Key) -> Bool {
        _state.pointee._insertDeferringGrowthStep(key)
    }

    /// The share of a growth of `inserts` inserts made by ``_insertDeferringGrowthStep(_:)``.
    @inlinable final func _stepGrowth(inserts: Int) { _state.pointee._stepGrowthIfNeeded(inserts: inserts) }

    /// Removes `key`; `false` if it was not there.
    @inlinable @discardableResult final func remove(_ key: Key) -> Bool { _state.pointee.remove(key) }

    /// Removes every key and frees the tables.
    @inlinable final func removeAll() { _state.pointee.removeAll() }

    /// How many buckets of the draining table each insert moves over.
    @inlinable static var _bucketsDrainedPerInsert: Int { _IdentityIndexState<Key>._bucketsDrainedPerInsert }

    /// The buckets of the next table made ready so far, and its size (for tests).
    @inlinable final var _nextTable: (prepared: Int, bucketCount: Int) {
        _state.pointee._nextStorage == nil ? (0, 0) : (_state.pointee._nextPrepared, _state.pointee._live.bucketCount * 2)
    }
}

/// The tables of an ``_IdentityIndex`` and the work on them. Unowned storage: the index frees it
/// (``removeAll()``); never copied.
@usableFromInline
struct _IdentityIndexState<Key: Hashable> {
    /// How many buckets of the draining table each insert moves over (see the type's notes).
    @usableFromInline static var _bucketsDrainedPerInsert: Int { 8 }
    /// How many buckets of the next table each insert makes ready (see the type's notes).
    @usableFromInline static var _bucketsPreparedPerInsert: Int { 32 }
    /// The bucket count of the first table (holds 24 keys: a default page of 20 fits).
    @usableFromInline static var _initialBucketCount: Int { 32 }

    /// Where keys are inserted.
    @usableFromInline var _live: _IdentityIndexTable<Key>
    /// The previous table, whose keys are being moved into `_live`; empty when not growing.
    @usableFromInline var _draining: _IdentityIndexTable<Key>
    /// The next bucket of `_draining` to move.
    @usableFromInline var _drainCursor: Int
    /// The storage of the table that the next growth will insert into (twice the live table's
    /// buckets), allocated ahead and made ready a slice per insert: its first `_nextPrepared`
    /// tags are zeroed, the rest uninitialized. `nil` until the live table is five eighths full;
    /// every change of the live table frees it or takes it.
    @usableFromInline var _nextStorage: UnsafeMutableRawPointer?
    @usableFromInline var _nextPrepared: Int

    @inlinable init() {
        _live = _IdentityIndexTable()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
        _nextStorage = nil
        _nextPrepared = 0
    }

    /// The number of keys.
    @inlinable var count: Int { _live.count + _draining.count }

    /// Whether `key` is in the index.
    @inlinable func contains(_ key: Key) -> Bool {
        let hash = _IdentityIndexTable<Key>.hash(key)
        if _live.find(key, hash: hash) != nil { return true }
        return _draining.count > 0 && _draining.find(key, hash: hash) != nil
    }

    /// Inserts `key`; `false` if it was already there.
    @inlinable mutating func insert(_ key: Key) -> Bool {
        guard _insertDeferringGrowthStep(key) else { return false }
        _stepGrowthIfNeeded(inserts: 1)
        return true
    }

    /// Inserts `key`, without the insert's share of a growth (``_stepGrowthIfNeeded(inserts:)``).
    @inlinable @inline(__always) mutating func _insertDeferringGrowthStep(_ key: Key) -> Bool {
        let hash = _IdentityIndexTable<Key>.hash(key)
        if _live.find(key, hash: hash) != nil { return false }
        if _draining.count > 0, _draining.find(key, hash: hash) != nil { return false }
        if count + 1 > _live.bucketCount / 4 * 3 { _grow() }
        _live.insertNew(key, hash: hash)
        return true
    }

    /// The share of a growth of `inserts` inserts: moves 8 buckets per insert of the draining
    /// table, if one is draining, and prepares 32 buckets per insert of the next table once the
    /// live one is five eighths full.
    @inlinable @inline(__always) mutating func _stepGrowthIfNeeded(inserts: Int) {
        if _draining.count > 0 || count > (_live.mask &+ 1) / 8 * 5 { _stepGrowth(inserts: inserts) }
    }

    /// Out of line, so that the common insert stays small.
    @inlinable @inline(never) mutating func _stepGrowth(inserts: Int) {
        if _draining.count > 0 { _drain(buckets: Self._bucketsDrainedPerInsert * inserts) }
        if count > _live.bucketCount / 8 * 5 { _prepareNext(buckets: Self._bucketsPreparedPerInsert * inserts) }
    }

    /// Removes `key`; `false` if it was not there.
    @inlinable mutating func remove(_ key: Key) -> Bool {
        let hash = _IdentityIndexTable<Key>.hash(key)
        if let bucket = _live.find(key, hash: hash) {
            _live.removeShiftingBack(at: bucket)
            return true
        }
        guard _draining.count > 0, let bucket = _draining.find(key, hash: hash) else { return false }
        _draining.removeLeavingTombstone(at: bucket)
        if _draining.count == 0 { _finishDraining() }
        return true
    }

    /// Removes every key and frees the tables.
    @inlinable mutating func removeAll() {
        _live.destroy()
        _draining.destroy()
        _nextStorage?.deallocate()
        _live = _IdentityIndexTable()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
        _nextStorage = nil
        _nextPrepared = 0
    }

    /// Starts draining the live table into a new one twice its size.
    @inlinable mutating func _grow() {
        if _draining.count > 0 {
            // Only when one loop of deferred inserts (``_insertDeferringGrowthStep(_:)``) holds
            // more keys than the live table had when it grew: a first page of thousands of
            // items. Its cost is then proportional to that loop's.
            _drain(buckets: _draining.bucketCount)
        }
        var bucketCount = Swift.max(Self._initialBucketCount, _live.bucketCount * 2)
        while count + 1 > bucketCount / 4 * 3 { bucketCount *= 2 }
        _draining.destroy()
        _draining = _live
        _drainCursor = 0
        if let next = _nextStorage, bucketCount == _draining.bucketCount * 2 {
            // Made ready by the inserts since five eighths: every bucket is, by the sizes above
            // (removals only lengthen the window; a page's share comes after the page, so its
            // last slices may be left); this prepares what is left.
            _live = _IdentityIndexTable(unprepared: next, bucketCount: bucketCount)
            _live.prepare(_nextPrepared..<bucketCount)
        } else {
            // The first table, or a size the growth skipped to: zeroed at once.
            _nextStorage?.deallocate()
            _live = _IdentityIndexTable(bucketCount: bucketCount)
        }
        _nextStorage = nil
        _nextPrepared = 0
        if _draining.count == 0 { _finishDraining() }
    }

    /// Makes the next `buckets` buckets of the table that the next growth will use ready,
    /// allocating it first if needed.
    @inlinable mutating func _prepareNext(buckets: Int) {
        let bucketCount = _live.bucketCount * 2
        let storage: UnsafeMutableRawPointer
        if let next = _nextStorage {
            guard _nextPrepared < bucketCount else { return }
            storage = next
        } else {
            storage = _IdentityIndexTable<Key>.allocateStorage(bucketCount: bucketCount)
            _nextStorage = storage
            _nextPrepared = 0
        }
        let end = Swift.min(bucketCount, _nextPrepared + buckets)
        _IdentityIndexTable<Key>(unprepared: storage, bucketCount: bucketCount).prepare(_nextPrepared..<end)
        _nextPrepared = end
    }

    /// Moves the keys of the next `buckets` buckets of the draining table into the live one.
    @inlinable mutating func _drain(buckets: Int) {
        let tags = _draining.tags
        let keys = _draining.keys
        var cursor = _drainCursor
        let end = Swift.min(_draining.bucketCount, cursor + Swift.min(buckets, _draining.bucketCount))
        while cursor < end {
            if tags[cursor] & _IdentityIndexTable<Key>.occupiedBit != 0 {
                let key = (keys + cursor).move()
                tags[cursor] = _IdentityIndexTable<Key>.tombstone
                _draining.count -= 1
                _live.insertNew(key, hash: _IdentityIndexTable<Key>.hash(key))
            }
            cursor += 1
        }
        _drainCursor = cursor
        if _draining.count == 0 { _finishDraining() }
    }

    @inlinable mutating func _finishDraining() {
        _draining.destroy()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
    }
}

/// One table of an ``_IdentityIndex``: unowned storage (the index allocates and frees it).
@usableFromInline
struct _IdentityIndexTable<Key: Hashable> {
    /// A bucket's tag: `0` empty, ``tombstone`` (only in a draining table), or ``occupiedBit``
    /// plus the top 7 bits of the key's hash.
    @usableFromInline static var tombstone: UInt8 { 1 }
    @usableFromInline static var occupiedBit: UInt8 { 0x80 }

    /// One allocation: the buckets' keys, then their tags (``allocateStorage(bucketCount:)``).
    @usableFromInline var storage: UnsafeMutableRawPointer?
    /// The bucket count minus one (a power of two minus one); `0` without storage.
    @usableFromInline var mask: Int
    @usableFromInline var count: Int

    /// A table without storage.
    @inlinable init() {
        storage = nil
        mask = 0
        count = 0
    }

    /// A table of `bucketCount` empty buckets (a power of two).
    @inlinable init(bucketCount: Int) {
        self.init(unprepared: Self.allocateStorage(bucketCount: bucketCount), bucketCount: bucketCount)
        prepare(0..<bucketCount)
    }

    /// A table over `storage` (from ``allocateStorage(bucketCount:)``), whose tags may not be
    /// initialized yet: it must not be used until ``prepare(_:)`` has covered every bucket.
    @inlinable init(unprepared storage: UnsafeMutableRawPointer, bucketCount: Int) {
        self.storage = storage
        mask = bucketCount - 1
        count = 0
    }

    /// The storage of a table of `bucketCount` buckets: keys and tags in one allocation (one
    /// `malloc` per table, and one pointer to keep), the keys first, so they are aligned.
    @inlinable static func allocateStorage(bucketCount: Int) -> UnsafeMutableRawPointer {
        let keyBytes = bucketCount * MemoryLayout<Key>.stride
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: keyBytes + bucketCount, alignment: MemoryLayout<Key>.alignment)
        storage.bindMemory(to: Key.self, capacity: bucketCount)
        (storage + keyBytes).bindMemory(to: UInt8.self, capacity: bucketCount)
        return storage
    }

    /// The keys of the buckets (only with storage).
    @inlinable var keys: UnsafeMutablePointer<Key> {
        storage.unsafelyUnwrapped.assumingMemoryBound(to: Key.self)
    }

    /// The tags of the buckets (only with storage).
    @inlinable var tags: UnsafeMutablePointer<UInt8> {
        (storage.unsafelyUnwrapped + (mask &+ 1) &* MemoryLayout<Key>.stride).assumingMemoryBound(to: UInt8.self)
    }

    /// Marks `buckets` empty (zeroes their tags), and writes a byte into each memory page of
    /// their keys that starts among them, so that the system maps those pages in now rather
    /// than when keys first land there. The byte goes in as raw memory (no key is made there:
    /// an empty bucket's key is uninitialized memory, written over by `initialize(to:)`).
    @inlinable func prepare(_ buckets: Range<Int>) {
        guard !buckets.isEmpty else { return }
        (tags + buckets.lowerBound).initialize(repeating: 0, count: buckets.count)
        let base = storage.unsafelyUnwrapped
        let stride = MemoryLayout<Key>.stride
        let pageSize = 4_096
        // The first page boundary at or after the slice's start, up to its end.
        var offset = (buckets.lowerBound * stride + pageSize - 1) / pageSize * pageSize
        let end = buckets.upperBound * stride
        while offset < end {
            base.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
            offset += pageSize
        }
    }

    @inlinable var bucketCount: Int { storage == nil ? 0 : mask + 1 }

    /// `key.hashValue` (the standard library's seeded hash) through the requirement it is made
    /// of, which specialized code calls directly (`hashValue` is an out-of-line getter).
    @inlinable static func hash(_ key: Key) -> Int { key._rawHashValue(seed: 0) }

    @inlinable static func tag(_ hash: Int) -> UInt8 {
        occupiedBit | UInt8(truncatingIfNeeded: UInt(bitPattern: hash) &>> (UInt.bitWidth - 7))
    }

    /// The bucket that holds `key`, if any. Probing ends at an empty bucket: there is always
    /// one, as a table is never more than three quarters full (tombstones included).
    @inlinable func find(_ key: Key, hash: Int) -> Int? {
        guard count > 0 else { return nil }
        let tags = self.tags
        let keys = self.keys
        let tag = Self.tag(hash)
        var bucket = hash & mask
        while true {
            let found = tags[bucket]
            if found == 0 { return nil }
            if found == tag && keys[bucket] == key { return bucket }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Stores `key`, known to be absent, in the first empty bucket of its probe run. Only for
    /// a live table (no tombstones), with room left.
    @inlinable @inline(__always) mutating func insertNew(_ key: Key, hash: Int) {
        let tags = self.tags
        var bucket = hash & mask
        while tags[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        (keys + bucket).initialize(to: key)
        tags[bucket] = Self.tag(hash)
        count += 1
    }

    /// Removes the key in `bucket` and moves later keys of its probe run back into the hole,
    /// so that no tombstone is left.
    @inlinable mutating func removeShiftingBack(at bucket: Int) {
        let tags = self.tags
        let keys = self.keys
        (keys + bucket).deinitialize(count: 1)
        var hole = bucket
        var next = (bucket &+ 1) & mask
        while tags[next] != 0 {
            let home = Self.hash(keys[next]) & mask
            // The key at `next` may fill the hole if its home is not after the hole (cyclically).
            if (next &- home) & mask >= (next &- hole) & mask {
                (keys + hole).moveInitialize(from: keys + next, count: 1)
                tags[hole] = tags[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        tags[hole] = 0
        count -= 1
    }

    /// Removes the key in `bucket`, leaving a tombstone so that probe runs through it still
    /// reach the keys after it (a draining table only).
    @inlinable mutating func removeLeavingTombstone(at bucket: Int) {
        (keys + bucket).deinitialize(count: 1)
        tags[bucket] = Self.tombstone
        count -= 1
    }

    /// Deinitializes the keys and frees the storage (the table must not be used after).
    @inlinable func destroy() {
        guard let storage else { return }
        if !_isPOD(Key.self) && count > 0 {
            let keys = self.keys
            let tags = self.tags
            for bucket in 0...mask where tags[bucket] & Self.occupiedBit != 0 {
                (keys + bucket).deinitialize(count: 1)
            }
        }
        storage.deallocate()
    }
}
