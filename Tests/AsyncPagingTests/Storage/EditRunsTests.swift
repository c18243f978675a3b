@testable import AsyncPaging
import Testing

/// The runs an edit overlay holds its edits in, against sorted arrays: random inserts,
/// replacements, removals and trims, with runs splitting and emptying.
@Suite("Edit runs")
struct EditRunsTests {
    @Test("random edits agree with a sorted array", arguments: 0..<4)
    func agreesWithSortedArrays(seed: Int) {
        var random = SplitMix64(seed: UInt64(seed))
        var runs = _EditRuns<Int>()
        var model: [(position: Int, value: Int)] = []
        var shared: [_EditRuns<Int>] = []
        var sharedModels: [[(position: Int, value: Int)]] = []
        for step in 0..<3_000 {
            let position = Int(random.next() % 2_000)
            if random.next() % 4 == 0 {
                let removed = runs.remove(position)
                let index = model.firstIndex { $0.position == position }
                #expect(removed == index.map { model[$0].value })
                if let index { model.remove(at: index) }
            } else {
                runs.set(step, at: position)
                if let index = model.firstIndex(where: { $0.position == position }) {
                    model[index].value = step
                } else {
                    model.insert((position, step), at: model.firstIndex { $0.position > position } ?? model.count)
                }
            }
            if step % 500 == 0 {
                // Copies share runs; later edits must not change them.
                shared.append(runs)
                sharedModels.append(model)
            }
            #expect(runs.count == model.count)
            let probe = Int(random.next() % 2_100)
            #expect(runs.countBelow(probe) == model.filter { $0.position < probe }.count)
            #expect(runs.value(at: probe) == model.first { $0.position == probe }?.value)
        }
        #expect(runs.allPositions == model.map(\.position))
        #expect(runs.runs.allSatisfy { !$0.positions.isEmpty && $0.positions.count == $0.values.count && $0.count <= _EditRuns<Int>.maximumRun })
        #expect(Self.startsAreCounts(runs))
        for (copy, copyModel) in zip(shared, sharedModels) {
            #expect(copy.allPositions == copyModel.map(\.position))
        }
        for (first, end) in [(0, 2_000), (500, 1_500), (1_999, 2_000), (700, 700), (-5, 300)] {
            let (kept, below, above) = runs.keeping(from: first, to: end)
            #expect(kept.allPositions == model.map(\.position).filter { $0 >= first && $0 < end })
            #expect(below == model.filter { $0.position < first }.count)
            #expect(above == model.filter { $0.position >= end }.count)
            #expect(runs.positions(from: first, to: end) == kept.allPositions)
            #expect(Self.startsAreCounts(kept))
        }
    }

    /// Whether each run's `start` is the number of entries before it.
    static func startsAreCounts<Value>(_ runs: _EditRuns<Value>) -> Bool {
        runs.runs.indices.allSatisfy { index in
            runs.runs[index].start == runs.runs[..<index].reduce(0) { $0 + $1.count }
        }
    }

    @Test("removed positions: the store index of a shown index skips them")
    func countRemovedBeforeVisible() {
        var random = SplitMix64(seed: 9)
        var removed = _EditRuns<Void>()
        var model = Set<Int>()
        let offset = 37
        for _ in 0..<1_500 {
            let position = offset + Int(random.next() % 3_000)
            removed.insert(position)
            model.insert(position)
        }
        let shown = (offset..<offset + 3_000).filter { !model.contains($0) }
        for index in stride(from: 0, to: shown.count, by: 7) {
            let m = removed.countRemoved(beforeVisible: index, offset: offset)
            #expect(index + m + offset == shown[index], "index \(index)")
        }
    }
}
