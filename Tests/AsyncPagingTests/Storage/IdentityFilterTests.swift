@testable import AsyncPaging
import Testing

@Suite("Identity filter")
struct IdentityFilterTests {
    /// Seeds and first positions: 0, just under 2^16 and 2^32 (the stored positions wrap),
    /// negative, and just under `Int.max` (logical positions wrap).
    static let modelRuns: [(UInt64, Int)] = [(1, 0), (2, 65_536 - 37), (3, 4_294_967_296 - 5), (4, -1_000), (5, Int.max - 20_000)]

    @Test("the index's state stays within 72 bytes (an idle controller with ids pays no more for it)")
    func stateSize() {
        #expect(MemoryLayout<_IdentityIndexState<Int>>.size <= 72)
        #expect(MemoryLayout<_IdentityIndexTable>.size == 20)
    }

    @Test("grows across many doublings without losing or inventing a key")
    func growsAcrossDoublings() {
        let store = ModelStore<Int>()
        var growths = 0
        var wasGrowing = false
        for key in 0..<300_000 {
            let bucketsBefore = store.index._bucketCount
            #expect(store.append(key), "key \(key)")
            if store.index._bucketCount > bucketsBefore && bucketsBefore > 0 {
                // A growth starts only once the previous one has drained.
                #expect(!wasGrowing, "growth at key \(key) while still draining")
                growths += 1
            }
            wasGrowing = store.index._isGrowing
        }
        #expect(growths >= 12)
        #expect(store.index.count == 300_000)
        #expect((0..<300_000).allSatisfy { store.contains($0) })
        #expect(!(300_000..<310_000).contains { store.contains($0) })
        #expect(!(0..<300_000).contains { store.append($0) })
        #expect(store.index.count == 300_000)
    }

    @Test("a growth moves a few buckets per insert rather than every key at once")
    func growthIsIncremental() {
        let store = ModelStore<Int>()
        var key = 0
        while !store.index._isGrowing || store.index._bucketCount < 4_096 {
            store.append(key)
            key += 1
        }
        // Just grown: most keys are still in the old table.
        #expect(store.index._isGrowing)
        #expect(store.index.count == key)
        let drainingBuckets = store.index._draining.bucketCount
        #expect(store.index._draining.count > drainingBuckets / 2)
        var insertsToDrain = 0
        while store.index._isGrowing {
            store.append(key)
            key += 1
            insertsToDrain += 1
        }
        // The old table drains 8 buckets per insert.
        #expect(insertsToDrain <= drainingBuckets / _IdentityIndex<Int>._bucketsDrainedPerInsert)
        #expect((0..<key).allSatisfy { store.contains($0) })
    }

    @Test("the table a growth switches to is made ready a slice per insert before it")
    func nextTableIsPreparedAhead() {
        let store = ModelStore<Int>()
        var key = 0
        // Past the first growths, to a live table of 6,144 buckets that has drained.
        while store.index._bucketCount < 4_096 || store.index._isGrowing {
            store.append(key)
            key += 1
        }
        let live = store.index._bucketCount
        #expect(live == 6_144, "48 buckets, doubled")
        // Nothing is allocated ahead until the table is eleven sixteenths full.
        while store.index.count < live / 16 * 11 {
            #expect(store.index._nextTable.bucketCount == 0, "count \(store.index.count)")
            store.append(key)
            key += 1
        }
        // Then each insert prepares a slice, and all of it is ready before the growth.
        var lastPrepared = 0
        while store.index.count + 1 <= live / 4 * 3 {
            store.append(key)
            key += 1
            let next = store.index._nextTable
            #expect(next.bucketCount == 2 * live)
            #expect(next.prepared > lastPrepared || next.prepared == next.bucketCount)
            #expect(next.prepared - lastPrepared <= _IdentityIndexState<Int>._bucketsPreparedPerInsert)
            lastPrepared = next.prepared
        }
        #expect(lastPrepared == 2 * live)
        // The insert that grows switches to it; the next table is made again later.
        store.append(key)
        key += 1
        #expect(store.index._isGrowing)
        #expect(store.index._bucketCount == live + 2 * live)
        #expect(store.index._nextTable.bucketCount == 0)
        #expect((0..<key).allSatisfy { store.contains($0) })
        #expect(!store.contains(key))
    }

    @Test("keys removed from the live and the draining table are gone; the others stay")
    func removal() {
        let store = ModelStore<Int>()
        for key in 0..<50_000 { store.append(key) }
        // Remove while a table drains, too: insert until a growth starts, then remove.
        var next = 50_000
        while !store.index._isGrowing {
            store.append(next)
            next += 1
        }
        for key in stride(from: 0, to: next, by: 3) { #expect(store.remove(key)) }
        #expect(!store.remove(0))
        #expect(!store.remove(next + 1))
        for key in 0..<next { #expect(store.contains(key) == !key.isMultiple(of: 3), "key \(key)") }
        #expect(store.index.count == next - (next + 2) / 3)
        // Removed keys can come back.
        #expect(store.append(3))
        #expect(store.contains(3))
        store.removeAll()
        #expect(store.index.count == 0)
        #expect(store.index._bucketCount == 0)
        #expect(!store.contains(1))
        #expect(store.append(1))
    }

    @Test(
        "random appends, prepends, drops, removals and lookups agree with a Set, wherever positions start",
        arguments: Self.modelRuns)
    func modelCheckAgainstSet(seed: UInt64, start: Int) {
        var random = SplitMix(seed: seed)
        let store = ModelStore<CollidingKey>(start: start)
        var model = Set<CollidingKey>()
        for step in 0..<60_000 {
            // Keys from a small range, so that inserts and removals hit existing keys; the
            // range widens so the index grows through several sizes.
            let range = 1 + step / 10
            let key = CollidingKey(value: Int(random.next() % UInt64(range)))
            switch random.next() % 20 {
            case 0..<7:
                #expect(store.append(key) == model.insert(key).inserted, "step \(step)")
            case 7..<10:
                #expect(store.prepend(key) == model.insert(key).inserted, "step \(step)")
            case 10..<14:
                #expect(store.remove(key) == (model.remove(key) != nil), "step \(step)")
            case 14:
                for dropped in store.dropFirst(Int(random.next() % 30)) { model.remove(dropped) }
            case 15:
                for dropped in store.dropLast(Int(random.next() % 30)) { model.remove(dropped) }
            case 16..<19:
                #expect(store.contains(key) == model.contains(key), "step \(step)")
            default:
                if random.next() % 500 == 0 {
                    store.removeAll()
                    model.removeAll()
                } else if random.next() % 100 == 0 {
                    store.renumberWithoutGaps()
                }
            }
            #expect(store.index.count == model.count, "step \(step)")
        }
        #expect(model.allSatisfy { store.contains($0) })
        #expect(store.positionsAreRight())
    }

    @Test("positions spanning more than the table's position bits widen them (many removals, a large page)")
    func widensPositions() {
        let store = ModelStore<Int>(start: -3)
        // Keep one key in 1,000: the index stays small while the positions span 2^17.
        for key in 0..<140_000 {
            #expect(store.append(key))
            if !key.isMultiple(of: 1_000) { #expect(store.remove(key)) }
        }
        #expect(store.index.count == 140)
        #expect(store.index._live.positionBits >= 18)
        #expect((0..<140_000).allSatisfy { store.contains($0) == $0.isMultiple(of: 1_000) })
        #expect(store.positionsAreRight())
        for key in stride(from: 0, to: 140_000, by: 1_000) { #expect(store.remove(key)) }
        #expect(store.index.count == 0)
    }

    @Test("renumbering after a fold keeps every key findable and removable at its new position")
    func renumbersAfterFold() {
        let store = ModelStore<Int>(start: 1_000)
        for key in 0..<20_000 { store.append(key) }
        for key in 0..<5_000 { store.prepend(-1 - key) }
        // Remove a scattered third, while a growth may be draining, then fold.
        for key in stride(from: -5_000, to: 20_000, by: 3) { store.remove(key) }
        store.renumberWithoutGaps()
        #expect(store.positionsAreRight())
        for key in -5_000..<20_000 {
            #expect(store.contains(key) == !(key + 5_000).isMultiple(of: 3), "key \(key)")
        }
        for key in -5_000..<20_000 where !(key + 5_000).isMultiple(of: 3) { #expect(store.remove(key), "key \(key)") }
        #expect(store.index.count == 0)
    }

    @Test(
        "a restore records every key at once, in the table growth would have reached; inserts, removals and growths go on from it",
        arguments: [(0, 0), (1, 7), (36, -3), (37, 65_536 - 11), (5_000, 4_294_967_296 - 2_000), (73_728, -1), (73_729, Int.max - 80_000)])
    func recordsAllAtOnce(count: Int, start: Int) {
        let store = ModelStore<Int>(start: start)
        #expect(store.fillAtOnce(Array(0..<count)) == -1)
        #expect(store.index.count == count)
        #expect(!store.index._isGrowing)
        #expect(store.index._nextTable.bucketCount == 0)
        var buckets = 48
        while count > buckets / 4 * 3 { buckets *= 2 }
        #expect(store.index._bucketCount == (count == 0 ? 0 : buckets))
        #expect((0..<count).allSatisfy { store.contains($0) })
        #expect(!store.contains(count) && !store.contains(-1))
        #expect(store.positionsAreRight())
        // Then as a loaded index: repeats refused, new keys through growths, removals at both ends.
        if count > 0 { #expect(!store.append(count / 2)) }
        for key in count..<count + 60_000 { #expect(store.append(key), "key \(key)") }
        for key in stride(from: 0, to: count + 60_000, by: 7) { #expect(store.remove(key), "key \(key)") }
        _ = store.dropFirst(100)
        _ = store.dropLast(100)
        #expect(store.positionsAreRight())
        #expect(store.index.count == store.positions.count)
        #expect(store.positions.keys.allSatisfy { store.contains($0) })
    }

    @Test("a repeated key ends the one-pass record: its position is returned and the index is left empty")
    func recordAllFindsRepeats() {
        for keys in [[1, 2, 1], [5, 5], Array(0..<10_000) + [9_999], [3] + Array(10..<20_000) + [3]] {
            let store = ModelStore<Int>(start: 12)
            #expect(store.fillAtOnce(keys) == keys.count - 1, "\(keys.count) keys")
            #expect(store.index.count == 0)
            #expect(store.index._bucketCount == 0)
        }
        // Colliding hashes (SipHash, long probe runs): a repeat among them is found too.
        let colliding = (0..<4_000).map { CollidingKey(value: $0) }
        let store = ModelStore<CollidingKey>()
        #expect(store.fillAtOnce(colliding + [CollidingKey(value: 2_001)]) == 4_000)
        let clean = ModelStore<CollidingKey>(start: -40)
        #expect(clean.fillAtOnce(colliding) == -1)
        #expect(colliding.allSatisfy { clean.contains($0) })
        #expect(clean.positionsAreRight())
        for key in colliding where key.value % 3 == 0 { #expect(clean.remove(key)) }
        #expect(colliding.allSatisfy { clean.contains($0) == ($0.value % 3 != 0) })
    }

    @Test("integer ids hash by a seeded mix: equal ids alike, distinct ids apart, buckets and tags evenly used")
    func integerHash() {
        #expect(_IdentityHash.hash(42) == _IdentityHash.hash(42))
        #expect(_IdentityHash.hash(Int64(42)) == _IdentityHash.hash(42))
        #expect(_IdentityHash.hash(UInt64(42)) == _IdentityHash.hash(42))
        #expect(_IdentityHash.hash(UInt(42)) == _IdentityHash.hash(42))
        #expect(_IdentityHash.hash(Int32(-5)) == _IdentityHash.hash(UInt32(bitPattern: -5)))
        #expect(_IdentityHash.hash("42") == "42"._rawHashValue(seed: 0), "other types keep the standard library's hash")
        // Consecutive ids (what databases hand out): no two hashes alike, and the top bits
        // (the bucket) and the low bits (the tag) spread evenly.
        let count = 1 << 16
        var hashes = Set<Int>()
        var buckets = [Int](repeating: 0, count: 64)
        var tags = [Int](repeating: 0, count: 8)
        for id in 0..<count {
            let hash = _IdentityHash.hash(id)
            hashes.insert(hash)
            buckets[Int(UInt64(UInt(bitPattern: hash)) >> 58)] += 1
            tags[hash & 7] += 1
        }
        #expect(hashes.count == count)
        #expect(buckets.allSatisfy { abs($0 - count / 64) < count / 64 / 4 }, "\(buckets)")
        #expect(tags.allSatisfy { abs($0 - count / 8) < count / 8 / 10 }, "\(tags)")
        // Strided ids (every 4,096th) spread as well.
        let strided = Set((0..<4_096).map { _IdentityHash.hash($0 << 12) >> 52 })
        #expect(strided.count > 4_096 / 2)
    }

    @Test("the filter records pages at both ends, drops repeats (the first stays) and forgets by position")
    func filterByID() {
        struct Post: Sendable, Equatable { let id: String; let title: String }
        let filter = _IdentityFilter<Post>(id: \.id)
        var store = ItemStore<Post>()
        let first = filter.recordNew(
            [Post(id: "a", title: "first"), Post(id: "b", title: ""), Post(id: "a", title: "same id")], at: .end,
            in: store.contents)
        #expect(first.kept == [Post(id: "a", title: "first"), Post(id: "b", title: "")] && first.dropped == 1)
        store.append(contentsOf: first.kept)
        // Prepended with a repeat inside the page and one of the list: the kept items are
        // recorded where they land.
        let before = filter.recordNew(
            [Post(id: "x", title: ""), Post(id: "b", title: "again"), Post(id: "y", title: ""), Post(id: "x", title: "2")],
            at: .start, in: store.contents)
        #expect(before.kept.map(\.id) == ["x", "y"] && before.dropped == 2)
        store.prepend(contentsOf: before.kept)
        #expect(filter.count == 4)
        let contents = store.contents
        #expect(filter.contains(Post(id: "y", title: ""), in: contents))
        #expect(!filter.contains(Post(id: "z", title: ""), in: contents))
        let offset = contents.counts.logicalOffset
        for index in 0..<contents.count {
            #expect(filter.remove(contents[index], at: index + offset, in: contents), "index \(index)")
        }
        #expect(filter.count == 0)
        #expect(filter.recordNew([Post(id: "a", title: "back")], at: .end, in: store.contents).kept.count == 1)
        filter.removeAll()
        #expect(filter.count == 0)
    }
}

/// An ``_IdentityIndex`` over a model store: keys by logical position, live from `low` up to
/// `high`, with gaps where keys were removed (as an edit removes an item: the store keeps it).
private final class ModelStore<Key: Hashable> {
    let index = _IdentityIndex<Key>()
    var stored: [Int: Key] = [:]
    var positions: [Key: Int] = [:]
    var low: Int
    var high: Int

    init(start: Int = 0) {
        low = start
        high = start
    }

    var keys: ModelKeys<Key> { ModelKeys(store: self) }

    func keyAt(_ relative: Int) -> Key {
        guard let key = stored[low &+ relative] else { fatalError("no key at \(low &+ relative)") }
        return key
    }

    @discardableResult func append(_ key: Key) -> Bool {
        stored[high] = key
        index._reserve(span: high &- low &+ 1, keys: keys)
        guard index.insert(key, at: high, keys: keys) else {
            stored[high] = nil
            return false
        }
        positions[key] = high
        high &+= 1
        return true
    }

    @discardableResult func prepend(_ key: Key) -> Bool {
        low &-= 1
        stored[low] = key
        index._reserve(span: high &- low, keys: keys)
        guard index.insert(key, at: low, keys: keys) else {
            stored[low] = nil
            low &+= 1
            return false
        }
        positions[key] = low
        return true
    }

    func contains(_ key: Key) -> Bool { index.contains(key, keys: keys) }

    /// Stores `keys` from position `low` and records them all at once, as a restore does
    /// (the index must be empty); returns what the index returns (`-1`, or the relative
    /// position of the first repeat, and then the store is emptied).
    func fillAtOnce(_ keys: [Key]) -> Int {
        precondition(stored.isEmpty)
        for (offset, key) in keys.enumerated() { stored[low &+ offset] = key }
        high = low &+ keys.count
        let repeated = index._recordAll(count: keys.count, keys: self.keys)
        if repeated >= 0 {
            stored = [:]
            high = low
            return repeated
        }
        for (offset, key) in keys.enumerated() { positions[key] = low &+ offset }
        return repeated
    }

    /// Removes `key` from the index where it is recorded (the store keeps it, as after an edit).
    @discardableResult func remove(_ key: Key) -> Bool {
        guard let position = positions.removeValue(forKey: key) else { return false }
        return index.remove(key, at: position, keys: keys)
    }

    /// Drops `count` positions at the start (at most all); returns the keys that leave the index.
    func dropFirst(_ count: Int) -> [Key] {
        var dropped: [Key] = []
        for _ in 0..<Swift.min(count, high &- low) {
            if let key = stored[low], positions[key] == low {
                #expect(index.remove(key, at: low, keys: keys))
                positions[key] = nil
                dropped.append(key)
            }
            stored[low] = nil
            low &+= 1
        }
        return dropped
    }

    /// Drops `count` positions at the end (at most all); returns the keys that leave the index.
    func dropLast(_ count: Int) -> [Key] {
        var dropped: [Key] = []
        for _ in 0..<Swift.min(count, high &- low) {
            let last = high &- 1
            if let key = stored[last], positions[key] == last {
                #expect(index.remove(key, at: last, keys: keys))
                positions[key] = nil
                dropped.append(key)
            }
            stored[last] = nil
            high = last
        }
        return dropped
    }

    func removeAll() {
        index.removeAll()
        stored = [:]
        positions = [:]
        high = low
    }

    /// Makes the store again from its recorded keys, in order, from position 0 (a fold).
    func renumberWithoutGaps() {
        var newPositions: [Int: Int] = [:]
        var newKeys: [Int: Key] = [:]
        var position = low
        while position != high {
            if let key = stored[position], positions[key] == position {
                newPositions[position] = newPositions.count
                newKeys[newKeys.count] = key
            }
            position &+= 1
        }
        index.renumber(base: low) { old in
            guard let new = newPositions[old] else { fatalError("no key recorded at \(old)") }
            return new
        }
        stored = newKeys
        positions = Dictionary(uniqueKeysWithValues: newKeys.map { ($0.value, $0.key) })
        low = 0
        high = newKeys.count
    }

    /// Whether every key is recorded at its position.
    func positionsAreRight() -> Bool {
        positions.allSatisfy { key, position in index._reposition(key, from: position, to: position) }
    }
}

/// The keys of a ``ModelStore`` as the index reads them.
private struct ModelKeys<Key: Hashable>: _IdentityKeys {
    let store: ModelStore<Key>
    var base: Int { store.low }
    func key(at relative: Int) -> Key { store.keyAt(relative) }
}

/// A key whose hashes collide in groups of four, so that probe runs are long and removals
/// shift keys back across them.
private struct CollidingKey: Hashable {
    let value: Int

    func hash(into hasher: inout Hasher) {
        hasher.combine(value / 4)
    }
}

/// A small seeded generator, so that a failing sequence can be replayed.
private struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
