@testable import AsyncPaging
import Testing

@Suite("Followed cursors")
struct FollowedCursorsTests {
    @Test("every cursor inserted is found, through every growth and while a set drains; no other is")
    func containsWhatWasInserted() {
        var cursors = _FollowedCursors<Int>()
        var sawDraining = false
        for cursor in 0..<100_000 {
            cursors.insert(cursor * 2)
            sawDraining = sawDraining || !cursors.draining.isEmpty
            if cursor % 997 == 0 {
                #expect((0...cursor).allSatisfy { cursors.contains($0 * 2) })
                #expect(!cursors.contains(cursor * 2 + 1))
            }
        }
        #expect(sawDraining, "growth went through the incremental copy")
        #expect((0..<100_000).allSatisfy { cursors.contains($0 * 2) && !cursors.contains($0 * 2 + 1) })
        #expect(cursors.draining.isEmpty || cursors.live.capacity > cursors.draining.count)
        cursors.removeAll()
        #expect(!cursors.contains(0) && cursors.live.isEmpty && cursors.draining.isEmpty)
    }

    @Test("a copy of the machine's set is a value: inserting into one leaves the other as it was")
    func valueSemantics() {
        var original = _FollowedCursors<Int>()
        for cursor in 0..<200 { original.insert(cursor) }
        var copy = original
        for cursor in 200..<400 { copy.insert(cursor) }
        #expect(!original.contains(300) && copy.contains(300) && original.contains(150))
    }
}
