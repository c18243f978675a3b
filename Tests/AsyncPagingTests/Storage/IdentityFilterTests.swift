@testable import AsyncPaging
import Testing

@Suite("Identity filter")
struct IdentityFilterTests {
    @Test("grows across many doublings without losing or inventing a key")
    func growsAcrossDoublings() {
        let index = _IdentityIndex<Int>()
        var growths = 0
        var wasGrowing = false
        for key in 0..<300_000 {
            let bucketsBefore = index._bucketCount
            #expect(index.insert(key), "key \(key)")
            if index._bucketCount > bucketsBefore && bucketsBefore > 0 {
                // A growth starts only once the previous one has drained.
                #expect(!wasGrowing, "growth at key \(key) while still draining")
                growths += 1
            }
            wasGrowing = index._isGrowing
        }
        #expect(growths >= 13)
        #expect(index.count == 300_000)
        #expect((0..<300_000).allSatisfy { index.contains($0) })
        #expect(!(300_000..<310_000).contains { index.contains($0) })
        #expect(!(0..<300_000).contains { index.insert($0) })
        #expect(index.count == 300_000)
    }

    @Test("a growth moves a few buckets per insert rather than every key at once")
    func growthIsIncremental() {
        let index = _IdentityIndex<Int>()
        var key = 0
        while !index._isGrowing || index._bucketCount < 4_096 {
            index.insert(key)
            key += 1
        }
        // Just grown: most keys are still in the old table.
        #expect(index._isGrowing)
        #expect(index.count == key)
        let drainingBuckets = index._draining.bucketCount
        #expect(index._draining.count > drainingBuckets / 2)
        var insertsToDrain = 0
        while index._isGrowing {
            index.insert(key)
            key += 1
            insertsToDrain += 1
        }
        // The old table drains 8 buckets per insert.
        #expect(insertsToDrain <= drainingBuckets / _IdentityIndex<Int>._bucketsDrainedPerInsert)
        #expect((0..<key).allSatisfy { index.contains($0) })
    }

    @Test("the table a growth switches to is made ready a slice per insert before it")
    func nextTableIsPreparedAhead() {
        let index = _IdentityIndex<Int>()
        var key = 0
        // Past the first growths, to a live table of 4,096 buckets that has drained.
        while index._bucketCount < 4_096 || index._isGrowing {
            index.insert(key)
            key += 1
        }
        let live = index._bucketCount
        // Nothing is allocated ahead until the table is five eighths full.
        while index.count < live / 8 * 5 {
            #expect(index._nextTable.bucketCount == 0, "count \(index.count)")
            index.insert(key)
            key += 1
        }
        // Then each insert prepares a slice, and all of it is ready before the growth.
        var lastPrepared = 0
        while index.count + 1 <= live / 4 * 3 {
            index.insert(key)
            key += 1
            let next = index._nextTable
            #expect(next.bucketCount == 2 * live)
            #expect(next.prepared > lastPrepared || next.prepared == next.bucketCount)
            #expect(next.prepared - lastPrepared <= _IdentityIndexState<Int>._bucketsPreparedPerInsert)
            lastPrepared = next.prepared
        }
        #expect(lastPrepared == 2 * live)
        // The insert that grows switches to it; the next table is made again later.
        index.insert(key)
        key += 1
        #expect(index._isGrowing)
        #expect(index._bucketCount == live + 2 * live)
        #expect(index._nextTable.bucketCount == 0)
        #expect((0..<key).allSatisfy { index.contains($0) })
        #expect(!index.contains(key))
    }

    @Test("keys removed from the live and the draining table are gone; the others stay")
    func removal() {
        let index = _IdentityIndex<Int>()
        for key in 0..<50_000 { index.insert(key) }
        // Remove while a table drains, too: insert until a growth starts, then remove.
        var next = 50_000
        while !index._isGrowing {
            index.insert(next)
            next += 1
        }
        for key in stride(from: 0, to: next, by: 3) { #expect(index.remove(key)) }
        #expect(!index.remove(0))
        #expect(!index.remove(next + 1))
        for key in 0..<next { #expect(index.contains(key) == !key.isMultiple(of: 3), "key \(key)") }
        #expect(index.count == next - (next + 2) / 3)
        // Removed keys can come back.
        #expect(index.insert(3))
        #expect(index.contains(3))
        index.removeAll()
        #expect(index.count == 0)
        #expect(index._bucketCount == 0)
        #expect(!index.contains(1))
        #expect(index.insert(1))
    }

    @Test("random inserts, removals and lookups agree with Set", arguments: [1, 2, 3])
    func modelCheckAgainstSet(seed: UInt64) {
        var random = SplitMix(seed: seed)
        let index = _IdentityIndex<CollidingKey>()
        var model = Set<CollidingKey>()
        for step in 0..<60_000 {
            // Keys from a small range, so that inserts and removals hit existing keys; the
            // range widens so the index grows and shrinks through several sizes.
            let range = 1 + step / 10
            let key = CollidingKey(value: Int(random.next() % UInt64(range)))
            switch random.next() % 10 {
            case 0..<5:
                #expect(index.insert(key) == model.insert(key).inserted, "step \(step)")
            case 5..<8:
                #expect(index.remove(key) == (model.remove(key) != nil), "step \(step)")
            case 8:
                #expect(index.contains(key) == model.contains(key), "step \(step)")
            default:
                if random.next() % 500 == 0 {
                    index.removeAll()
                    model.removeAll()
                }
            }
            #expect(index.count == model.count, "step \(step)")
        }
        #expect(model.allSatisfy { index.contains($0) })
    }

    @Test("keys with heap storage are released when removed, when drained and with the index")
    func releasesKeys() {
        var token = Token()
        do {
            let index = _IdentityIndex<TokenKey>()
            for value in 0..<5_000 { index.insert(TokenKey(value: value, token: token)) }
            for value in 0..<2_500 { index.remove(TokenKey(value: value, token: token)) }
            #expect(index.count == 2_500)
            index.removeAll()
            for value in 0..<3_000 { index.insert(TokenKey(value: value, token: token)) }
            #expect(!isKnownUniquelyReferenced(&token))
            _ = index
        }
        #expect(isKnownUniquelyReferenced(&token))
    }

    @Test("the filter records items by id, drops repeats and forgets on removal")
    func filterByID() {
        struct Post { let id: String; let title: String }
        let filter = _IdentityFilter<Post>(id: \.id)
        #expect(filter.insert(Post(id: "a", title: "first")))
        #expect(!filter.insert(Post(id: "a", title: "same id, other title")))
        #expect(filter.insert(Post(id: "b", title: "second")))
        #expect(filter.contains(Post(id: "b", title: "")))
        #expect(filter.count == 2)
        #expect(filter.remove(Post(id: "a", title: "")))
        #expect(!filter.contains(Post(id: "a", title: "")))
        #expect(filter.insert(Post(id: "a", title: "back")))
        filter.removeAll()
        #expect(filter.count == 0)
        #expect(filter.insert(Post(id: "b", title: "")))
    }
}

/// A key whose hashes collide in groups of four, so that probe runs are long and removals
/// shift keys back across them.
private struct CollidingKey: Hashable {
    let value: Int

    func hash(into hasher: inout Hasher) {
        hasher.combine(value / 4)
    }
}

private final class Token {}

/// A key that holds a reference, so that the tests can see every copy released.
private struct TokenKey: Hashable {
    let value: Int
    let token: Token

    static func == (lhs: TokenKey, rhs: TokenKey) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
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
