/// The ids of a feed's items, for the duplicate filter, held as the items' *positions*: each
/// bucket holds the logical position of an item in the controller's store (4 bytes), and the id
/// is read from the store when a bucket's hash bits match. A million ids take ~6 MB (1.5 M
/// buckets) instead of ~19 MB for a table of the ids themselves.
///
/// Positions are logical positions (``_ItemStoreCounts/logicalOffset``): a store index plus
/// the offset, stable while pages come and go at either end. A bucket keeps them modulo 2^k
/// (k position bits, ``_IdentityIndexTable/positionBits``): the live positions (the store's
/// and those of the page being recorded) always span fewer than 2^k, so a position is read
/// back relative to the lowest live one (`base`: `relative = (stored - base) mod 2^k`).
/// Every operation that compares ids is given the live items as ``_IdentityKeys`` (`base` and
/// `key(at: relative)`, the id of the item at `base + relative`); ``_reserve(span:keys:)``
/// widens the positions
/// before a page that would not fit.
///
/// A bucket is a `UInt32`: `0` empty, `1` a tombstone (only in a draining table), or an
/// occupied bit, the displacement from the key's home bucket (4 bits, saturated: the largest
/// value means "compute it from the key"), the low bits of the key's hash (a tag: most
/// mismatches are rejected without reading the store) and the position. Bucket counts need not
/// be powers of two (the home bucket is the hash's top 32 bits scaled to the bucket count): the
/// first table has 48 buckets, and each growth doubles it.
///
/// Open addressing with linear probing, at most three quarters full. When it is three quarters
/// full it does not rehash every key at once, as `Set` does (a feed of a million items paid
/// ~46 M instructions on the page that grew it): it allocates a table twice as large for new
/// keys and moves the keys of the old one over a few buckets at a time, on each insert
/// (``_bucketsDrainedPerInsert``); a moved key's id is read from the store to hash it. Lookups
/// search both tables while the old one drains. The old table is always empty before the next
/// growth: it holds at most ¾ C keys over C buckets and drains in C / 8 inserts, while the new
/// table (2 C buckets) grows again only after ¾ C more. The duplicate filter takes a page's
/// share of this work once, after the page's inserts (``_insertDeferringGrowthStep(_:at:keys:)``,
/// ``_stepGrowth(inserts:keys:)``), which delays it by at most a page (a page of more
/// keys than the table holds, a large first page, makes the growth finish the draining and the
/// preparing at once: work in proportion to that page).
///
/// The larger table is made ready before it is needed, so that the insert that grows the index
/// does not pay for it either: once the live table is eleven sixteenths full, the next table
/// is allocated and each insert zeroes ``_IdentityIndexState/_bucketsPreparedPerInsert`` of its
/// buckets. The window from 11/16 to 3/4 is C / 16 inserts, which prepare 4 C buckets: twice
/// the 2 C needed. (Allocating it ahead at 5/8, as before, would hold a third table in the heap
/// for a fifth of the feed sizes; at 11/16 it is a tenth.)
///
/// Removing a key from the live table shifts the keys after it back, using their stored
/// displacements (no tombstones, so a feed that keeps dropping pages keeps short probe runs,
/// and no store reads unless a displacement saturated); removing from the draining table
/// leaves a tombstone, which drains with the rest. Removal is by position (the caller knows
/// where the item is), so it reads no id either.
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
    @inlinable final var _draining: _IdentityIndexTable { _state.pointee._draining }

    /// The live table (for tests).
    @inlinable final var _live: _IdentityIndexTable { _state.pointee._live }

    /// Whether the key `key` is in the index.
    @inlinable final func contains(_ key: Key, keys: some _IdentityKeys<Key>) -> Bool {
        _state.pointee.contains(key, keys: keys)
    }

    /// The logical position recorded for `key`, if it is in the index.
    @inlinable final func position(of key: Key, keys: some _IdentityKeys<Key>) -> Int? {
        _state.pointee.position(of: key, keys: keys)
    }

    /// Inserts `key`, of the item at logical `position` (`false`, and nothing recorded, if the
    /// key was already there), and takes the insert's share of a growth.
    @inlinable @discardableResult final func insert(_ key: Key, at position: Int, keys: some _IdentityKeys<Key>) -> Bool {
        guard _state.pointee._insertDeferringGrowthStep(key, at: position, keys: keys) else { return false }
        _state.pointee._stepGrowthIfNeeded(inserts: 1, keys: keys)
        return true
    }

    /// Inserts `key` (`false` if it was already there) but leaves the insert's share of a
    /// growth to ``_stepGrowth(inserts:keys:)``, which a loop of inserts calls once after
    /// it (the duplicate filter, once per page).
    @inlinable @inline(__always) final func _insertDeferringGrowthStep(
        _ key: Key, at position: Int, keys: some _IdentityKeys<Key>
    ) -> Bool {
        _state.pointee._insertDeferringGrowthStep(key, at: position, keys: keys)
    }

    /// The share of a growth of `inserts` inserts made by ``_insertDeferringGrowthStep(_:at:keys:)``.
    @inlinable final func _stepGrowth(inserts: Int, keys: some _IdentityKeys<Key>) {
        _state.pointee._stepGrowthIfNeeded(inserts: inserts, keys: keys)
    }

    /// Makes room for positions spanning `span` from `keys.base` (the store's items and a page
    /// about to be recorded): widens the stored positions if they would not fit.
    @inlinable final func _reserve(span: Int, keys: some _IdentityKeys<Key>) {
        _state.pointee._reserve(span: span, keys: keys)
    }

    /// Removes `key`, of the item at logical `position`; `false` if it was not there.
    @inlinable @discardableResult final func remove(_ key: Key, at position: Int, keys: some _IdentityKeys<Key>) -> Bool {
        _state.pointee.remove(key, at: position, keys: keys)
    }

    /// Moves the record of `key` from logical position `old` to `new`; `false` if it was not
    /// recorded at `old`.
    @inlinable @discardableResult final func _reposition(_ key: Key, from old: Int, to new: Int) -> Bool {
        _state.pointee._reposition(key, from: old, to: new)
    }

    /// Gives every recorded item the logical position `newPosition(old)` (the store was made
    /// again); `base` is the lowest live position.
    @inlinable final func renumber(base: Int, _ newPosition: (Int) -> Int) {
        _state.pointee.renumber(base: base, newPosition)
    }

    /// Removes every key and frees the tables.
    @inlinable final func removeAll() { _state.pointee.removeAll() }

    /// Records the keys of the `count` live items from `keys.base` up into the index, which
    /// must be empty, in one pass over a table made to size (see
    /// ``_IdentityIndexState/_recordAll(count:keys:)``). Returns `-1`, or the relative position
    /// of the first key that repeats an earlier one (then the index is left empty).
    @inlinable final func _recordAll(count: Int, keys: some _IdentityKeys<Key>) -> Int {
        _state.pointee._recordAll(count: count, keys: keys)
    }

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
    @usableFromInline static var _bucketsDrainedPerInsert: Int { 32 }
    /// How many buckets of the next table each insert makes ready (see the type's notes).
    @usableFromInline static var _bucketsPreparedPerInsert: Int { 64 }
    /// The bucket count of the first table (holds 36 keys: a default page of 20 fits).
    @usableFromInline static var _initialBucketCount: Int { 48 }
    /// The fewest position bits a table has.
    @usableFromInline static var _minimumPositionBits: Int { 16 }

    /// Where keys are inserted.
    @usableFromInline var _live: _IdentityIndexTable
    /// The position bits the next table gets at least (raised by ``_reserve(span:keys:)``);
    /// here, in the live table's padding.
    @usableFromInline var _floor: UInt8
    /// The previous table, whose keys are being moved into `_live`; empty when not growing.
    @usableFromInline var _draining: _IdentityIndexTable
    /// The next bucket of `_draining` to move.
    @usableFromInline var _drainCursor: Int
    /// The storage of the table that the next growth will insert into (twice the live table's
    /// buckets), allocated ahead and made ready a slice per insert: its first `_nextPrepared`
    /// buckets are zeroed, the rest uninitialized. `nil` until the live table is eleven
    /// sixteenths full; every change of the live table frees it or takes it.
    @usableFromInline var _nextStorage: UnsafeMutablePointer<UInt32>?
    @usableFromInline var _nextPrepared: Int

    @inlinable init() {
        _live = _IdentityIndexTable()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
        _nextStorage = nil
        _nextPrepared = 0
        _floor = UInt8(Self._minimumPositionBits)
    }

    /// The position bits the next table gets at least.
    @inlinable var _positionBitsFloor: Int {
        get { Int(_floor) }
        set { _floor = UInt8(newValue) }
    }

    /// The number of keys.
    @inlinable var count: Int { _live.count + _draining.count }

    /// The hash of `key` (``_IdentityHash``): a seeded mix for integer ids, the standard
    /// library's seeded hash otherwise.
    @inlinable @inline(__always) static func hash(_ key: Key) -> Int { _IdentityHash.hash(key) }

    /// Whether `key` is in the index.
    @inlinable func contains(_ key: Key, keys: some _IdentityKeys<Key>) -> Bool {
        let hash = Self.hash(key)
        if _live.find(key, hash: hash, keys: keys) != nil { return true }
        return _draining.count > 0 && _draining.find(key, hash: hash, keys: keys) != nil
    }

    /// The logical position recorded for `key`, if it is in the index.
    @inlinable func position(of key: Key, keys: some _IdentityKeys<Key>) -> Int? {
        let hash = Self.hash(key)
        if let bucket = _live.find(key, hash: hash, keys: keys) { return _live.position(at: bucket, base: keys.base) }
        guard _draining.count > 0, let bucket = _draining.find(key, hash: hash, keys: keys) else { return nil }
        return _draining.position(at: bucket, base: keys.base)
    }

    /// Inserts `key` at `position`, without the insert's share of a growth
    /// (``_stepGrowthIfNeeded(inserts:keys:)``).
    @inlinable @inline(__always) mutating func _insertDeferringGrowthStep(
        _ key: Key, at position: Int, keys: some _IdentityKeys<Key>
    ) -> Bool {
        let hash = Self.hash(key)
        // The live table's probe ends at the empty bucket where the key would go.
        let (found, empty, displacement) = _live.probe(key, hash: hash, keys: keys)
        if found { return false }
        if _draining.count > 0, _draining.find(key, hash: hash, keys: keys) != nil { return false }
        if count + 1 > _live.bucketCount / 4 * 3 {
            _grow(keys: keys)
            _live.insertNew(hash: hash, position: position)
        } else {
            _live.store(hash: hash, position: position, at: empty, displacement: displacement)
        }
        return true
    }

    /// The share of a growth of `inserts` inserts: moves 8 buckets per insert of the draining
    /// table, if one is draining, and prepares 64 buckets per insert of the next table once the
    /// live one is eleven sixteenths full.
    @inlinable @inline(__always) mutating func _stepGrowthIfNeeded(inserts: Int, keys: some _IdentityKeys<Key>) {
        if _draining.count > 0 || count > _live.bucketCount / 16 * 11 {
            _stepGrowth(inserts: inserts, keys: keys)
        }
    }

    /// Out of line (in the specialized code), so that the common insert stays small.
    @inlinable @inline(never) mutating func _stepGrowth(inserts: Int, keys: some _IdentityKeys<Key>) {
        if _draining.count > 0 { _drain(buckets: Self._bucketsDrainedPerInsert * inserts, keys: keys) }
        if count > _live.bucketCount / 16 * 11 { _prepareNext(buckets: Self._bucketsPreparedPerInsert * inserts) }
    }

    /// The bits needed to tell `span` positions apart.
    @inlinable static func bits(toHold span: Int) -> Int { Int.bitWidth - span.leadingZeroBitCount }

    /// Widens the positions of the tables if positions spanning `span` would not fit.
    @inlinable mutating func _reserve(span: Int, keys: some _IdentityKeys<Key>) {
        let needed = Self.bits(toHold: span)
        guard needed > _positionBitsFloor || (_live.bucketCount > 0 && needed > _live.positionBits) else { return }
        _widen(to: needed, keys: keys)
    }

    /// Out of line: only after many removals or with a page larger than the table.
    @inlinable @inline(never) mutating func _widen(to bits: Int, keys: some _IdentityKeys<Key>) {
        precondition(bits <= 31, "the duplicate filter holds positions spanning fewer than 2^31 items")
        _positionBitsFloor = Swift.max(_positionBitsFloor, bits)
        if _draining.count > 0 && bits > _draining.positionBits {
            _drain(buckets: _draining.bucketCount, keys: keys)
        }
        if _live.bucketCount > 0 && bits > _live.positionBits {
            _live.reencode(positionBits: bits, base: keys.base)
        }
    }

    /// The position bits of a new table of `bucketCount` buckets.
    @inlinable func positionBits(forBuckets bucketCount: Int) -> Int {
        Swift.max(_positionBitsFloor, Self.bits(toHold: bucketCount))
    }

    /// Removes `key`, recorded at `position`; `false` if it was not there.
    @inlinable mutating func remove(_ key: Key, at position: Int, keys: some _IdentityKeys<Key>) -> Bool {
        let hash = Self.hash(key)
        if let bucket = _live.find(hash: hash, position: position) {
            _live.removeShiftingBack(at: bucket, keys: keys)
            return true
        }
        guard _draining.count > 0, let bucket = _draining.find(hash: hash, position: position) else { return false }
        _draining.removeLeavingTombstone(at: bucket)
        if _draining.count == 0 { _finishDraining() }
        return true
    }

    /// Moves the record of `key` from `old` to `new`.
    @inlinable mutating func _reposition(_ key: Key, from old: Int, to new: Int) -> Bool {
        let hash = Self.hash(key)
        if let bucket = _live.find(hash: hash, position: old) {
            _live.setPosition(new, at: bucket)
            return true
        }
        guard _draining.count > 0, let bucket = _draining.find(hash: hash, position: old) else { return false }
        _draining.setPosition(new, at: bucket)
        return true
    }

    /// Gives every key the position `newPosition(old)`.
    @inlinable mutating func renumber(base: Int, _ newPosition: (Int) -> Int) {
        _live.renumber(base: base, newPosition)
        if _draining.count > 0 { _draining.renumber(base: base, newPosition) }
    }

    /// Records the keys of the `count` live items from `keys.base` up into the empty index
    /// (a restore, whose items are in the store already): one table of the size the growths
    /// would have reached for them (the first of 48 · 2^k buckets at most three quarters full),
    /// zeroed once; each key is hashed and probed once, and stored where its probe ends. No
    /// growth, no draining, no next table made ahead, no tombstones. A repeated key ends the pass:
    /// returns its relative position and leaves the index empty; else `-1`.
    @inlinable mutating func _recordAll(count keyCount: Int, keys: some _IdentityKeys<Key>) -> Int {
        precondition(count == 0, "recording every key into an index that holds some")
        removeAll()
        guard keyCount > 0 else { return -1 }
        var bucketCount = Self._initialBucketCount
        while keyCount > bucketCount / 4 * 3 { bucketCount *= 2 }
        let needed = Self.bits(toHold: keyCount)
        precondition(needed <= 31, "the duplicate filter holds positions spanning fewer than 2^31 items")
        _positionBitsFloor = Swift.max(_positionBitsFloor, needed)
        var table = _IdentityIndexTable(bucketCount: bucketCount, positionBits: positionBits(forBuckets: bucketCount))
        let base = keys.base
        // The seed once, not through its lazy global's accessor per key.
        let seed = _identityHashSeed
        for relative in 0..<keyCount {
            let key = keys.key(at: relative)
            let hash = _IdentityHash.hash(key, seed: seed)
            let (found, empty, displacement) = table.probe(key, hash: hash, keys: keys)
            if found {
                table.destroy()
                removeAll()
                return relative
            }
            table.store(hash: hash, position: base &+ relative, at: empty, displacement: displacement)
        }
        _live = table
        return -1
    }

    /// Removes every key and frees the tables.
    @inlinable mutating func removeAll() {
        _live.destroy()
        _draining.destroy()
        _nextStorage?.deallocate()
        self = _IdentityIndexState()
    }

    /// Starts draining the live table into a new one twice its size.
    @inlinable mutating func _grow(keys: some _IdentityKeys<Key>) {
        if _draining.count > 0 {
            // Only when one loop of deferred inserts (``_insertDeferringGrowthStep(_:at:keys:)``)
            // holds more keys than the live table had when it grew: a first page of thousands of
            // items. Its cost is then proportional to that loop's.
            _drain(buckets: _draining.bucketCount, keys: keys)
        }
        var bucketCount = Swift.max(Self._initialBucketCount, _live.bucketCount * 2)
        while count + 1 > bucketCount / 4 * 3 { bucketCount *= 2 }
        _draining.destroy()
        _draining = _live
        _drainCursor = 0
        let positionBits = positionBits(forBuckets: bucketCount)
        if let next = _nextStorage, bucketCount == _draining.bucketCount * 2 {
            // Made ready by the inserts since eleven sixteenths: every bucket is, by the sizes
            // above (removals only lengthen the window; a page's share comes after the page, so
            // its last slices may be left); this prepares what is left.
            _live = _IdentityIndexTable(unprepared: next, bucketCount: bucketCount, positionBits: positionBits)
            _live.prepare(_nextPrepared..<bucketCount)
        } else {
            // The first table, or a size the growth skipped to: zeroed at once.
            _nextStorage?.deallocate()
            _live = _IdentityIndexTable(bucketCount: bucketCount, positionBits: positionBits)
        }
        _nextStorage = nil
        _nextPrepared = 0
        if _draining.count == 0 { _finishDraining() }
    }

    /// Makes the next `buckets` buckets of the table that the next growth will use ready,
    /// allocating it first if needed.
    @inlinable mutating func _prepareNext(buckets: Int) {
        let bucketCount = _live.bucketCount * 2
        let storage: UnsafeMutablePointer<UInt32>
        if let next = _nextStorage {
            guard _nextPrepared < bucketCount else { return }
            storage = next
        } else {
            storage = .allocate(capacity: bucketCount)
            _nextStorage = storage
            _nextPrepared = 0
        }
        let end = Swift.min(bucketCount, _nextPrepared + buckets)
        (storage + _nextPrepared).initialize(repeating: 0, count: end - _nextPrepared)
        _nextPrepared = end
    }

    /// Moves the keys of the next `buckets` buckets of the draining table into the live one.
    @inlinable mutating func _drain(buckets: Int, keys: some _IdentityKeys<Key>) {
        // The tables in locals: the loop keeps their fields in registers.
        let draining = _draining
        var live = _live
        let entries = draining.storage.unsafelyUnwrapped
        let positionMask = draining.positionMask
        let base = keys.base
        // Into a table of twice the buckets, a key whose entry tells its home there moves
        // without reading its id and hashing it (most do: see ``_IdentityIndexTable/fraction(_:)``).
        let doubled = live.bucketCount == draining.bucketCount &* 2 && live.tagBits <= draining.tagBits
        let tagMask: UInt32 = (1 &<< UInt32(truncatingIfNeeded: live.tagBits)) &- 1
        let drainingTagShift = UInt32(truncatingIfNeeded: draining.positionBits)
        let liveTagShift = UInt32(truncatingIfNeeded: live.positionBits)
        let fractionBits = live.fractionBits
        var cursor = _drainCursor
        var moved = 0
        let end = Swift.min(draining.bucketCount, cursor + Swift.min(buckets, draining.bucketCount))
        while cursor < end {
            let entry = entries[cursor]
            if entry & _IdentityIndexTable.occupied != 0 {
                let position = base &+ ((Int(entry) &- base) & positionMask)
                entries[cursor] = _IdentityIndexTable.tombstone
                moved &+= 1
                if doubled, let (home, fraction) = draining.homeWhenDoubled(of: entry, at: cursor, fractionBits: fractionBits) {
                    let tag = (entry &>> drainingTagShift) & tagMask
                    live.insertMoved(
                        home: home, tagged: _IdentityIndexTable.occupied | tag &<< liveTagShift, fraction: fraction,
                        position: position)
                } else {
                    live.insertNew(hash: Self.hash(keys.key(at: position &- base)), position: position)
                }
            }
            cursor &+= 1
        }
        _live = live
        _draining.count -= moved
        _drainCursor = cursor
        if _draining.count == 0 { _finishDraining() }
    }

    @inlinable mutating func _finishDraining() {
        _draining.destroy()
        _draining = _IdentityIndexTable()
        _drainCursor = 0
    }
}

/// One table of an ``_IdentityIndex``: buckets of 32 bits (unowned storage: the index
/// allocates and frees it).
///
/// An occupied bucket, from the top bit down: the occupied bit, the displacement from the
/// key's home bucket (``displacementBits``; its largest value means "that or more"), the low
/// ``tagBits`` of the key's hash, and the item's logical position modulo 2^``positionBits``.
@usableFromInline
struct _IdentityIndexTable {
    @usableFromInline static var occupied: UInt32 { 1 << 31 }
    /// A removed key's bucket in a draining table (not occupied, not empty).
    @usableFromInline static var tombstone: UInt32 { 1 }

    @usableFromInline var storage: UnsafeMutablePointer<UInt32>?
    /// `0` without storage. (32 bits, with `_count`: the index's state fits 72 bytes.)
    @usableFromInline var _bucketCount: Int32
    @usableFromInline var _count: Int32
    /// The layout of an entry (``setLayout(positionBits:)``), in bits: from the bottom, the
    /// position, the tag, the fraction field, the displacement, then the occupied bit.
    @usableFromInline var _positionBits: UInt8
    @usableFromInline var _tagBits: UInt8
    @usableFromInline var _fractionBits: UInt8
    @usableFromInline var _displacementBits: UInt8

    /// A table without storage.
    @inlinable init() {
        storage = nil
        _bucketCount = 0
        _count = 0
        _positionBits = 0
        _tagBits = 0
        _fractionBits = 0
        _displacementBits = 0
    }

    /// A table of `bucketCount` empty buckets.
    @inlinable init(bucketCount: Int, positionBits: Int) {
        self.init(unprepared: .allocate(capacity: bucketCount), bucketCount: bucketCount, positionBits: positionBits)
        prepare(0..<bucketCount)
    }

    /// A table over `storage`, whose buckets may not be zeroed yet: it must not be used until
    /// ``prepare(_:)`` has covered every bucket.
    @inlinable init(unprepared storage: UnsafeMutablePointer<UInt32>, bucketCount: Int, positionBits: Int) {
        self.init()
        self.storage = storage
        self.bucketCount = bucketCount
        setLayout(positionBits: positionBits)
    }

    /// Splits the 31 bits below the occupied bit: `positionBits` for the position, 4 (or what
    /// is left) for the displacement, and of the rest up to three for the fraction field,
    /// keeping at least three (or all) for the tag.
    @inlinable mutating func setLayout(positionBits: Int) {
        let displacementBits = Swift.min(4, 31 - positionBits)
        let hashBits = 31 - positionBits - displacementBits
        let tagBits = Swift.min(hashBits, Swift.max(3, hashBits - 3))
        _positionBits = UInt8(positionBits)
        _tagBits = UInt8(tagBits)
        _fractionBits = UInt8(hashBits - tagBits)
        _displacementBits = UInt8(displacementBits)
    }

    @inlinable @inline(__always) var bucketCount: Int {
        get { Int(_bucketCount) }
        set { _bucketCount = Int32(truncatingIfNeeded: newValue) }
    }

    @inlinable @inline(__always) var count: Int {
        get { Int(_count) }
        set { _count = Int32(truncatingIfNeeded: newValue) }
    }

    @inlinable @inline(__always) var positionBits: Int { Int(_positionBits) }
    @inlinable @inline(__always) var positionMask: Int { (1 &<< Int(_positionBits)) &- 1 }
    @inlinable @inline(__always) var tagBits: Int { Int(_tagBits) }
    @inlinable @inline(__always) var fractionBits: Int { Int(_fractionBits) }
    @inlinable @inline(__always) var fractionShift: Int { Int(_positionBits) &+ Int(_tagBits) }
    @inlinable @inline(__always) var displacementShift: Int { 31 &- Int(_displacementBits) }
    /// The largest displacement stored; a bucket that holds it computes its own from its key.
    @inlinable @inline(__always) var saturatedDisplacement: Int { (1 &<< Int(_displacementBits)) &- 1 }

    /// The hash as 64 bits (spread on a 32-bit platform, so that the home uses its top bits).
    @inlinable @inline(__always) static func bits(_ hash: Int) -> UInt64 {
        Int.bitWidth == 64 ? UInt64(truncatingIfNeeded: hash) : UInt64(truncatingIfNeeded: hash) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The bucket a key's probe run starts at: the hash's top 32 bits scaled to the buckets.
    @inlinable @inline(__always) func home(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: ((Self.bits(hash) &>> 32) &* UInt64(truncatingIfNeeded: bucketCount)) &>> 32)
    }

    /// The fraction field of `hash` in this table: the bits of the home's product just below
    /// the home (a doubled table's home is twice this one's plus the first of them), as many
    /// as fit but one, then a 1 that marks their end (``fractionBits`` of them; `0`: none).
    @inlinable @inline(__always) func fraction(_ hash: Int) -> UInt32 {
        let bits = fractionBits
        guard bits > 0 else { return 0 }
        let below = UInt32(truncatingIfNeeded: (Self.bits(hash) &>> 32) &* UInt64(truncatingIfNeeded: bucketCount))
        return bits == 1 ? 1 : (below &>> UInt32(truncatingIfNeeded: 33 &- bits)) &<< 1 | 1
    }

    /// An entry: `tagged` (``tagged(_:)``), the fraction field, the displacement and the position.
    @inlinable @inline(__always) func entry(tagged: UInt32, fraction: UInt32, displacement: Int, position: Int) -> UInt32 {
        tagged | fraction &<< UInt32(truncatingIfNeeded: fractionShift)
            | UInt32(truncatingIfNeeded: Swift.min(displacement, saturatedDisplacement)) &<< UInt32(truncatingIfNeeded: displacementShift)
            | UInt32(truncatingIfNeeded: position & positionMask)
    }

    /// The home in a table of twice the buckets of the occupied `entry` in `bucket`, and its
    /// fraction field there (in `fractionBits` bits), when the entry knows them (its
    /// displacement is not saturated, and its fraction field holds a bit); `nil` otherwise.
    @inlinable @inline(__always) func homeWhenDoubled(
        of entry: UInt32, at bucket: Int, fractionBits newBits: Int
    ) -> (home: Int, fraction: UInt32)? {
        let displacement = Int(entry &>> UInt32(truncatingIfNeeded: displacementShift)) & saturatedDisplacement
        let bits = fractionBits
        guard displacement < saturatedDisplacement, bits > 1 else { return nil }
        let fieldMask: UInt32 = (1 &<< UInt32(truncatingIfNeeded: bits)) &- 1
        let field = (entry &>> UInt32(truncatingIfNeeded: fractionShift)) & fieldMask
        // A bit above the end marker (the lowest 1).
        guard field & (fieldMask &>> 1) != 0 else { return nil }
        let home = bucket >= displacement ? bucket &- displacement : bucket &+ bucketCount &- displacement
        let shifted = (field &<< 1) & fieldMask
        let fraction = newBits >= bits ? shifted &<< UInt32(truncatingIfNeeded: newBits &- bits) : shifted &>> UInt32(truncatingIfNeeded: bits &- newBits)
        return (2 &* home &+ Int(field &>> UInt32(truncatingIfNeeded: bits &- 1)), fraction)
    }

    /// Stores a key moved from a table of half the buckets (``homeWhenDoubled(of:at:fractionBits:)``):
    /// its home, occupied bit and tag, fraction field and position.
    @inlinable @inline(__always) mutating func insertMoved(home: Int, tagged: UInt32, fraction: UInt32, position: Int) {
        let entries = storage.unsafelyUnwrapped
        var bucket = home
        var displacement = 0
        while entries[bucket] != 0 {
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
            displacement &+= 1
        }
        entries[bucket] = entry(tagged: tagged, fraction: fraction, displacement: displacement, position: position)
        count += 1
    }

    /// The occupied bit and the tag of `hash`, in place.
    @inlinable @inline(__always) func tagged(_ hash: Int) -> UInt32 {
        let tag = UInt32(truncatingIfNeeded: Self.bits(hash)) & ((1 &<< UInt32(truncatingIfNeeded: tagBits)) &- 1)
        return Self.occupied | tag &<< UInt32(truncatingIfNeeded: positionBits)
    }

    /// The bits that `tagged(_:)` sets or clears.
    @inlinable @inline(__always) var tagMask: UInt32 {
        Self.occupied | ((1 &<< UInt32(truncatingIfNeeded: tagBits)) &- 1) &<< UInt32(truncatingIfNeeded: positionBits)
    }

    /// The bucket of `key`, if any. Probing ends at an empty bucket: there is always one, as a
    /// table is never more than three quarters full (tombstones included).
    @inlinable func find<Key: Hashable>(_ key: Key, hash: Int, keys: some _IdentityKeys<Key>) -> Int? {
        guard count > 0 else { return nil }
        let entries = storage.unsafelyUnwrapped
        let mask = tagMask
        let wanted = tagged(hash)
        let positionMask = positionMask
        let base = keys.base
        var bucket = home(hash)
        while true {
            let entry = entries[bucket]
            if entry == 0 { return nil }
            if entry & mask == wanted && keys.key(at: (Int(entry) &- base) & positionMask) == key { return bucket }
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
        }
    }

    /// Whether `key` is in this table (live: no tombstones) and, if not, the empty bucket where
    /// its probe run ends and that bucket's distance from the key's home. Without storage: not
    /// found, bucket 0.
    @inlinable @inline(__always) func probe<Key: Hashable>(
        _ key: Key, hash: Int, keys: some _IdentityKeys<Key>
    ) -> (found: Bool, empty: Int, displacement: Int) {
        guard bucketCount > 0 else { return (false, 0, 0) }
        let entries = storage.unsafelyUnwrapped
        let mask = tagMask
        let wanted = tagged(hash)
        let positionMask = positionMask
        let base = keys.base
        var bucket = home(hash)
        var displacement = 0
        while true {
            let entry = entries[bucket]
            if entry == 0 { return (false, bucket, displacement) }
            if entry & mask == wanted && keys.key(at: (Int(entry) &- base) & positionMask) == key {
                return (true, bucket, displacement)
            }
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
            displacement &+= 1
        }
    }

    /// Stores the key hashed `hash` at `position` in the empty `bucket`, `displacement` from its
    /// home (found by ``probe(_:hash:keys:)``).
    @inlinable @inline(__always) mutating func store(hash: Int, position: Int, at bucket: Int, displacement: Int) {
        storage.unsafelyUnwrapped[bucket] = entry(
            tagged: tagged(hash), fraction: fraction(hash), displacement: displacement, position: position)
        count += 1
    }

    /// The bucket of the key hashed `hash` recorded at `position`, if any (no id read).
    @inlinable func find(hash: Int, position: Int) -> Int? {
        guard count > 0 else { return nil }
        let entries = storage.unsafelyUnwrapped
        let mask = tagMask | UInt32(truncatingIfNeeded: positionMask)
        let wanted = tagged(hash) | UInt32(truncatingIfNeeded: position & positionMask)
        var bucket = home(hash)
        while true {
            let entry = entries[bucket]
            if entry == 0 { return nil }
            if entry & mask == wanted { return bucket }
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
        }
    }

    /// Stores the key hashed `hash`, known to be absent, at `position`, in the first empty
    /// bucket of its probe run. Only for a live table (no tombstones), with room left.
    @inlinable @inline(__always) mutating func insertNew(hash: Int, position: Int) {
        let entries = storage.unsafelyUnwrapped
        var bucket = home(hash)
        var displacement = 0
        while entries[bucket] != 0 {
            bucket &+= 1
            if bucket == bucketCount { bucket = 0 }
            displacement &+= 1
        }
        entries[bucket] = entry(tagged: tagged(hash), fraction: fraction(hash), displacement: displacement, position: position)
        count += 1
    }

    /// The displacement of the occupied `entry` in `bucket`.
    @inlinable @inline(__always) func displacement<Key: Hashable>(
        of entry: UInt32, at bucket: Int, keys: some _IdentityKeys<Key>
    ) -> Int {
        let stored = Int(entry &>> UInt32(truncatingIfNeeded: displacementShift)) & saturatedDisplacement
        guard stored == saturatedDisplacement else { return stored }
        let home = home(_IdentityIndexState<Key>.hash(keys.key(at: (Int(entry) &- keys.base) & positionMask)))
        return bucket >= home ? bucket - home : bucket + bucketCount - home
    }

    /// Removes the key in `bucket` and moves later keys of its probe run back into the hole,
    /// so that no tombstone is left.
    @inlinable mutating func removeShiftingBack<Key: Hashable>(at bucket: Int, keys: some _IdentityKeys<Key>) {
        let entries = storage.unsafelyUnwrapped
        let shift = UInt32(truncatingIfNeeded: displacementShift)
        let displacementMask = UInt32(truncatingIfNeeded: saturatedDisplacement) &<< shift
        var hole = bucket
        var next = bucket &+ 1 == bucketCount ? 0 : bucket &+ 1
        while true {
            let entry = entries[next]
            if entry == 0 { break }
            let displacement = displacement(of: entry, at: next, keys: keys)
            let distance = next >= hole ? next - hole : next + bucketCount - hole
            // The key at `next` may fill the hole if its home is not after the hole (cyclically).
            if displacement >= distance {
                let moved = Swift.min(displacement - distance, saturatedDisplacement)
                entries[hole] = entry & ~displacementMask | UInt32(truncatingIfNeeded: moved) &<< shift
                hole = next
            }
            next &+= 1
            if next == bucketCount { next = 0 }
        }
        entries[hole] = 0
        count -= 1
    }

    /// Removes the key in `bucket`, leaving a tombstone so that probe runs through it still
    /// reach the keys after it (a draining table only).
    @inlinable mutating func removeLeavingTombstone(at bucket: Int) {
        storage.unsafelyUnwrapped[bucket] = Self.tombstone
        count -= 1
    }

    /// The logical position recorded in the occupied `bucket`; `base` is the lowest live one.
    @inlinable func position(at bucket: Int, base: Int) -> Int {
        base &+ ((Int(storage.unsafelyUnwrapped[bucket]) &- base) & positionMask)
    }

    /// Records `position` in the occupied `bucket` instead of its position.
    @inlinable func setPosition(_ position: Int, at bucket: Int) {
        let entries = storage.unsafelyUnwrapped
        let mask = UInt32(truncatingIfNeeded: positionMask)
        entries[bucket] = entries[bucket] & ~mask | UInt32(truncatingIfNeeded: position) & mask
    }

    /// Gives every key the position `newPosition(old)`; `base` is the lowest live position.
    @inlinable func renumber(base: Int, _ newPosition: (Int) -> Int) {
        guard count > 0 else { return }
        let entries = storage.unsafelyUnwrapped
        let positionMask = positionMask
        let mask = UInt32(truncatingIfNeeded: positionMask)
        for bucket in 0..<bucketCount {
            let entry = entries[bucket]
            guard entry & Self.occupied != 0 else { continue }
            let position = newPosition(base &+ ((Int(entry) &- base) & positionMask))
            entries[bucket] = entry & ~mask | UInt32(truncatingIfNeeded: position) & mask
        }
    }

    /// Stores the positions in `bits` bits (more than now): the tags lose their top bits, the
    /// displacements keep their values (saturated if they have fewer bits).
    @inlinable mutating func reencode(positionBits bits: Int, base: Int) {
        let old = self
        setLayout(positionBits: bits)
        guard count > 0 else { return }
        let entries = storage.unsafelyUnwrapped
        let oldTagMask: UInt32 = (1 &<< UInt32(truncatingIfNeeded: old.tagBits)) &- 1
        let newTagMask: UInt32 = (1 &<< UInt32(truncatingIfNeeded: tagBits)) &- 1
        for bucket in 0..<bucketCount {
            let entry = entries[bucket]
            guard entry & Self.occupied != 0 else { continue }
            let position = base &+ ((Int(entry) &- base) & old.positionMask)
            let tag = (entry &>> UInt32(truncatingIfNeeded: old.positionBits)) & oldTagMask & newTagMask
            let displacement = Int(entry &>> UInt32(truncatingIfNeeded: old.displacementShift)) & old.saturatedDisplacement
            // The fraction field keeps its first bits (its end marker may go: then it has none).
            let field = (entry &>> UInt32(truncatingIfNeeded: old.fractionShift)) & ((1 &<< UInt32(truncatingIfNeeded: old.fractionBits)) &- 1)
            let fraction = fractionBits >= old.fractionBits
                ? field &<< UInt32(truncatingIfNeeded: fractionBits &- old.fractionBits) : field &>> UInt32(truncatingIfNeeded: old.fractionBits &- fractionBits)
            entries[bucket] = self.entry(
                tagged: Self.occupied | tag &<< UInt32(truncatingIfNeeded: positionBits), fraction: fraction,
                displacement: displacement, position: position)
        }
    }

    /// Marks `buckets` empty.
    @inlinable func prepare(_ buckets: Range<Int>) {
        guard !buckets.isEmpty else { return }
        (storage.unsafelyUnwrapped + buckets.lowerBound).initialize(repeating: 0, count: buckets.count)
    }

    /// Frees the storage (the table must not be used after).
    @inlinable func destroy() {
        storage?.deallocate()
    }
}

/// The live items whose positions an ``_IdentityIndex`` holds, as it reads them: the lowest
/// live logical position and the key of the item at each position from it. A struct passed
/// by value (specialized, no closure context, no copy per item).
@usableFromInline
protocol _IdentityKeys<Key> {
    associatedtype Key: Hashable
    /// The lowest live logical position.
    var base: Int { get }
    /// The key of the item at logical position `base + relative`.
    func key(at relative: Int) -> Key
}
