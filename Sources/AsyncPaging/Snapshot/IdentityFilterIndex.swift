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

    /// Removes `key`; `false` if it was not there.
    @inlinable @discardableResult final func remove(_ key: Key) -> Bool { _state.pointee.remove(key) }

    /// Removes every key and frees the tables.
    @inlinable final func removeAll() { _state.pointee.removeAll() }

    /// How many buckets of the draining table each insert moves over.
    @inlinable static var _bucketsDrainedPerInsert: Int { _IdentityIndexState<Key>._bucketsDrainedPerInsert }
}

/// The tables of an ``_IdentityIndex`` and the work on them. Unowned storage: the index frees it
/// (``removeAll()``); never copied.
@usableFromInline
struct _IdentityIndexState<Key: Hashable> {
    /// How many buckets of the draining table each insert moves over (see the type's notes).
    @usableFromInline static var _bucketsDrainedPerInsert: Int { 8 }
    /// The bucket count of the first table (holds 24 keys: a default page of 20 fits).
    @usableFromInline static var _initialBucketCount: Int { 32 }

    /// Where keys are inserted.
    @usableFromInline var _live: _IdentityIndexTable<Key>
    /// The previous table, whose keys are being moved into `_live`; empty when not growing.
    @usableFromInline var _draining: _IdentityIndexTable<Key>
    /// The next bucket of `_draining` to move.
    @usableFromInline var _drainCursor: Int

    @inlinable init() {
        _live = _IdentityIndexTable()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
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
        let hash = _IdentityIndexTable<Key>.hash(key)
        if _live.find(key, hash: hash) != nil { return false }
        if _draining.count > 0, _draining.find(key, hash: hash) != nil { return false }
        if count + 1 > _live.bucketCount / 4 * 3 { _grow() }
        _live.insertNew(key, hash: hash)
        if _draining.count > 0 { _drain(buckets: Self._bucketsDrainedPerInsert) }
        return true
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
        _live = _IdentityIndexTable()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
    }

    /// Starts draining the live table into a new one twice its size.
    @inlinable mutating func _grow() {
        if _draining.count > 0 {
            // Unreachable by the sizes above; kept so that a change to them cannot lose keys.
            _drain(buckets: _draining.bucketCount)
        }
        var bucketCount = Swift.max(Self._initialBucketCount, _live.bucketCount * 2)
        while count + 1 > bucketCount / 4 * 3 { bucketCount *= 2 }
        _draining.destroy()
        _draining = _live
        _drainCursor = 0
        _live = _IdentityIndexTable(bucketCount: bucketCount)
        if _draining.count == 0 { _finishDraining() }
    }

    /// Moves the keys of the next `buckets` buckets of the draining table into the live one.
    @inlinable mutating func _drain(buckets: Int) {
        let tags = _draining.tags.unsafelyUnwrapped
        let keys = _draining.keys.unsafelyUnwrapped
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

    @usableFromInline var keys: UnsafeMutablePointer<Key>?
    @usableFromInline var tags: UnsafeMutablePointer<UInt8>?
    /// The bucket count minus one (a power of two minus one); `0` without storage.
    @usableFromInline var mask: Int
    @usableFromInline var count: Int

    /// A table without storage.
    @inlinable init() {
        keys = nil
        tags = nil
        mask = 0
        count = 0
    }

    /// A table of `bucketCount` empty buckets (a power of two).
    @inlinable init(bucketCount: Int) {
        let keys = UnsafeMutablePointer<Key>.allocate(capacity: bucketCount)
        let tags = UnsafeMutablePointer<UInt8>.allocate(capacity: bucketCount)
        tags.initialize(repeating: 0, count: bucketCount)
        self.keys = keys
        self.tags = tags
        mask = bucketCount - 1
        count = 0
    }

    @inlinable var bucketCount: Int { keys == nil ? 0 : mask + 1 }

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
        let tags = self.tags.unsafelyUnwrapped
        let keys = self.keys.unsafelyUnwrapped
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
    @inlinable mutating func insertNew(_ key: Key, hash: Int) {
        let tags = self.tags.unsafelyUnwrapped
        var bucket = hash & mask
        while tags[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        (keys.unsafelyUnwrapped + bucket).initialize(to: key)
        tags[bucket] = Self.tag(hash)
        count += 1
    }

    /// Removes the key in `bucket` and moves later keys of its probe run back into the hole,
    /// so that no tombstone is left.
    @inlinable mutating func removeShiftingBack(at bucket: Int) {
        let tags = self.tags.unsafelyUnwrapped
        let keys = self.keys.unsafelyUnwrapped
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
        (keys.unsafelyUnwrapped + bucket).deinitialize(count: 1)
        tags.unsafelyUnwrapped[bucket] = Self.tombstone
        count -= 1
    }

    /// Deinitializes the keys and frees the storage (the table must not be used after).
    @inlinable func destroy() {
        guard let keys, let tags else { return }
        if !_isPOD(Key.self) && count > 0 {
            for bucket in 0...mask where tags[bucket] & Self.occupiedBit != 0 {
                (keys + bucket).deinitialize(count: 1)
            }
        }
        keys.deallocate()
        tags.deallocate()
    }
}
