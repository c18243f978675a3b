@testable import AsyncPaging
import Testing

@Suite("Followed cursors")
struct FollowedCursorsTests {
    @Test("every cursor inserted is found, through every growth and while a table drains; no other is")
    func containsWhatWasInserted() {
        var cursors = _FollowedCursors<Int>()
        var sawDraining = false
        var sawSuccessor = false
        for cursor in 0..<100_000 {
            let inserted = cursors.insertIfNew(cursor * 2)
            #expect(inserted)
            sawDraining = sawDraining || cursors.draining != nil
            sawSuccessor = sawSuccessor || cursors.successor != nil
            if cursor % 997 == 0 {
                #expect((0...cursor).allSatisfy { cursors.contains($0 * 2) })
                #expect(!cursors.contains(cursor * 2 + 1))
                let again = cursors.insertIfNew(cursor * 2)
                #expect(!again)
                #expect(cursors.count == cursor + 1)
            }
        }
        #expect(sawDraining && sawSuccessor, "growth went through the prepared successor and the drain")
        #expect((0..<100_000).allSatisfy { cursors.contains($0 * 2) && !cursors.contains($0 * 2 + 1) })
        cursors.removeAll()
        #expect(!cursors.contains(0) && cursors.live == nil && cursors.draining == nil)
    }

    @Test("reserving room (a restore's pages) keeps the cursors already in, and the reserved inserts need no growth")
    func reserveCapacityKeepsCursors() {
        var cursors = _FollowedCursors<String>()
        for cursor in 0..<10 { cursors.insert("kept \(cursor)") }
        let shared = cursors // a copy shares the tables: reserving must not change it
        cursors.reserveCapacity(5_000)
        let reservedBuckets = cursors.live?.bucketCount
        #expect(cursors.live.map { $0.capacity >= 5_010 && $0.isReady } == true)
        var grew = false
        for cursor in 0..<5_000 {
            cursors.insert("new \(cursor)")
            grew = grew || cursors.draining != nil || cursors.live?.bucketCount != reservedBuckets
        }
        #expect(!grew, "no growth within the reserved room")
        #expect(cursors.count == 5_010)
        #expect((0..<10).allSatisfy { cursors.contains("kept \($0)") && shared.contains("kept \($0)") })
        #expect((0..<5_000).allSatisfy { cursors.contains("new \($0)") && !shared.contains("new \($0)") })
        let again = cursors.insertIfNew("new 42")
        #expect(!again)
    }

    @Test("a large table's successor is ready before the table fills, and a drain ends before the next growth")
    func noInsertWaits() {
        var cursors = _FollowedCursors<Int>()
        for cursor in 0..<200_000 {
            if let live = cursors.live, live.count >= live.capacity {
                // A large table's successor is ready; a small one's is made when it fills.
                if live.bucketCount >= 256 { #expect(cursors.successor?.isReady == true, "at \(cursor)") }
                #expect(cursors.draining == nil, "at \(cursor)")
            }
            cursors.insert(cursor)
        }
    }

    @Test("inserts and removes (the bound's) agree with a Set, through growths and drains, Int and String cursors")
    func agreesWithASet() {
        var generator = SplitMix(seed: 24)
        var cursors = _FollowedCursors<Int>()
        var strings = _FollowedCursors<String>()
        var reference = Set<Int>()
        var next = 0
        var oldest = 0
        for step in 0..<60_000 {
            // Mostly new cursors, some removed from the oldest end (as the bound drops pages),
            // some repeats.
            switch generator.next() % 10 {
            case 0..<6:
                let inserted = cursors.insertIfNew(next)
                let insertedString = strings.insertIfNew("cursor-\(next)-with-some-length")
                #expect(inserted && insertedString && reference.insert(next).inserted)
                next += 1
            case 6..<8 where oldest < next:
                cursors.remove(oldest)
                strings.remove("cursor-\(oldest)-with-some-length")
                reference.remove(oldest)
                oldest += 1
            default:
                let probe = Int(generator.next() % UInt64(next + 10))
                let inserted = cursors.insertIfNew(probe)
                let insertedString = strings.insertIfNew("cursor-\(probe)-with-some-length")
                #expect(inserted == insertedString && inserted == reference.insert(probe).inserted, "step \(step)")
                if probe >= next { next = probe + 1 }
            }
            if step % 4_999 == 0 {
                #expect(cursors.count == reference.count)
                #expect((0..<(next + 10)).allSatisfy { cursors.contains($0) == reference.contains($0) })
                #expect((0..<(next + 10)).allSatisfy { strings.contains("cursor-\($0)-with-some-length") == reference.contains($0) })
            }
        }
        #expect((0..<(next + 10)).allSatisfy { cursors.contains($0) == reference.contains($0) })
    }

    @Test("a copy is a value: inserting into or removing from one leaves the other as it was, during a drain too")
    func valueSemantics() {
        var original = _FollowedCursors<String>()
        for cursor in 0..<200 { original.insert("\(cursor)") }
        var copy = original
        for cursor in 200..<400 { copy.insert("\(cursor)") }
        copy.remove("150")
        #expect(!original.contains("300") && copy.contains("300") && original.contains("150") && !copy.contains("150"))
        // Copied while a table drains and a successor is being made ready.
        var growing = _FollowedCursors<Int>()
        var cursor = 0
        while growing.draining == nil { growing.insert(cursor); cursor += 1 }
        var other = growing
        other.remove(3)
        for more in cursor..<(cursor + 5_000) { other.insert(more) }
        #expect(growing.contains(3) && !other.contains(3) && !growing.contains(cursor + 10) && other.contains(cursor + 10))
        #expect((0..<cursor).allSatisfy { growing.contains($0) })
        #expect((0..<(cursor + 5_000)).allSatisfy { other.contains($0) == ($0 != 3) })
    }
}

/// A small deterministic generator for the tests' random steps.
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
