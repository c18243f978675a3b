/// Logical positions in ascending order, each with a value, held in runs of at most
/// ``maximumRun`` entries: the edits of an ``_EditOverlay`` (removed positions, replaced
/// positions and their replacements).
///
/// A value type whose runs are arrays, so an edit that changes a copy copies the list of runs
/// (O(count / 64): a reference and a count per run) and the one run it changes (at most 128
/// entries), never every entry: an overlay shared with older snapshots stays as it is, and an
/// edit's cost stays bounded however many edits came before it (a flat array copied every edit
/// cost a retain per replaced item, and folding the edits into the list at a limit cost
/// O(list)). Three allocations per changed copy: the list of runs and the run's two arrays.
@usableFromInline
struct _EditRuns<Value> {
    /// One run: its positions, ascending, their values, and how many entries the runs before
    /// it hold. (Two arrays rather than one of pairs: the positions copy as plain memory, and
    /// no tuple type's metadata is made at run time.)
    @usableFromInline struct _Run {
        @usableFromInline var start: Int
        @usableFromInline var positions: [Int]
        @usableFromInline var values: [Value]

        @inlinable init(start: Int, positions: [Int], values: [Value]) {
            self.start = start
            self.positions = positions
            self.values = values
        }

        @inlinable var count: Int { positions.count }

        /// How many of the run's positions are below `position`.
        @inlinable func countBelow(_ position: Int) -> Int {
            _EditRuns.countBelow(position, in: positions)
        }
    }

    /// The runs, ascending across runs; no run is empty.
    @usableFromInline var runs: [_Run]
    /// The entries.
    @usableFromInline var count: Int

    /// A run that grows past this splits in two.
    @inlinable static var maximumRun: Int { 128 }

    @inlinable init() {
        runs = []
        count = 0
    }

    @inlinable var isEmpty: Bool { count == 0 }

    /// The run that holds `position` or would: the last whose first position is at most
    /// `position` (`0` if none is).
    @inlinable func run(for position: Int) -> Int {
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].positions[0] <= position { low = middle + 1 } else { high = middle }
        }
        return Swift.max(0, low - 1)
    }

    /// How many of the ascending `positions` are below `position`.
    @inlinable static func countBelow(_ position: Int, in positions: [Int]) -> Int {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// How many positions are below `position`. O(log count).
    @inlinable func countBelow(_ position: Int) -> Int {
        guard count > 0 else { return 0 }
        let run = runs[run(for: position)]
        return run.start + run.countBelow(position)
    }

    /// Where `position` is (run and slot), if it is held.
    @inlinable func find(_ position: Int) -> (run: Int, slot: Int)? {
        guard count > 0 else { return nil }
        let index = run(for: position)
        let run = runs[index]
        let slot = run.countBelow(position)
        guard slot < run.count, run.positions[slot] == position else { return nil }
        return (index, slot)
    }

    @inlinable func contains(_ position: Int) -> Bool { find(position) != nil }

    /// The value at `position`, if it is held.
    @inlinable func value(at position: Int) -> Value? {
        guard let (run, slot) = find(position) else { return nil }
        return runs[run].values[slot]
    }

    /// Holds `value` at `position`, replacing the value there if any.
    @inlinable mutating func set(_ value: Value, at position: Int) {
        guard count > 0 else {
            runs = [_Run(start: 0, positions: [position], values: [value])]
            count = 1
            return
        }
        let run = run(for: position)
        let slot = runs[run].countBelow(position)
        if slot < runs[run].count, runs[run].positions[slot] == position {
            runs[run].values[slot] = value
            return
        }
        runs[run].positions.insert(position, at: slot)
        runs[run].values.insert(value, at: slot)
        count += 1
        for later in (run + 1)..<runs.count { runs[later].start += 1 }
        if runs[run].count > Self.maximumRun { split(run) }
    }

    /// Splits `run` into two halves.
    @inlinable mutating func split(_ run: Int) {
        let half = runs[run].count / 2
        let upper = _Run(
            start: runs[run].start + half, positions: Array(runs[run].positions[half...]),
            values: Array(runs[run].values[half...]))
        runs[run].positions.removeSubrange(half...)
        runs[run].values.removeSubrange(half...)
        runs.insert(upper, at: run + 1)
    }

    /// Removes the entry at `position`; its value, or `nil` if none was there.
    @inlinable @discardableResult mutating func remove(_ position: Int) -> Value? {
        guard let (run, slot) = find(position) else { return nil }
        runs[run].positions.remove(at: slot)
        let value = runs[run].values.remove(at: slot)
        count -= 1
        for later in (run + 1)..<runs.count { runs[later].start -= 1 }
        if runs[run].positions.isEmpty { runs.remove(at: run) }
        return value
    }

    /// The positions from `lower` up to (not including) `upper`, ascending.
    @inlinable func positions(from lower: Int, to upper: Int) -> [Int] {
        guard count > 0, lower < upper else { return [] }
        var result: [Int] = []
        var run = run(for: lower)
        var slot = runs[run].countBelow(lower)
        while run < runs.count {
            let positions = runs[run].positions
            while slot < positions.count {
                guard positions[slot] < upper else { return result }
                result.append(positions[slot])
                slot += 1
            }
            run += 1
            slot = 0
        }
        return result
    }

    /// Every position, ascending.
    @inlinable var allPositions: [Int] { runs.flatMap(\.positions) }

    /// The entries whose position is in `first..<end`, and how many were below and above.
    /// O(count / 64 + entries dropped).
    @inlinable func keeping(from first: Int, to end: Int) -> (kept: Self, below: Int, above: Int) {
        let below = countBelow(first)
        let above = count - countBelow(end)
        guard below > 0 || above > 0 else { return (self, 0, 0) }
        var kept = Self()
        guard count - below - above > 0 else { return (kept, below, above) }
        for run in runs {
            let positions = run.positions
            guard positions[positions.count - 1] >= first, positions[0] < end else { continue }
            let lower = positions[0] >= first ? 0 : run.countBelow(first)
            let upper = positions[positions.count - 1] < end ? positions.count : run.countBelow(end)
            if lower == 0 && upper == positions.count {
                kept.runs.append(_Run(start: kept.count, positions: positions, values: run.values))
            } else {
                kept.runs.append(_Run(
                    start: kept.count, positions: Array(positions[lower..<upper]), values: Array(run.values[lower..<upper])))
            }
            kept.count += upper - lower
        }
        return (kept, below, above)
    }
}

extension _EditRuns: Sendable where Value: Sendable {}
extension _EditRuns._Run: Sendable where Value: Sendable {}

extension _EditRuns where Value == Void {
    /// The number `m` of positions `p[j]` (ascending, `j` from 0) with `p[j] - offset - j <= index`
    /// (that quantity never decreases with `j`): for removed positions, how many come before
    /// the item shown at `index`. O(log count).
    @inlinable func countRemoved(beforeVisible index: Int, offset: Int) -> Int {
        guard count > 0 else { return 0 }
        // The last run whose first entry meets the condition.
        var low = 0
        var high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].positions[0] - offset - runs[middle].start <= index { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let run = runs[low - 1]
        var lower = 0
        var upper = run.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if run.positions[middle] - offset - (run.start + middle) <= index { lower = middle + 1 } else { upper = middle }
        }
        return run.start + lower
    }

    /// Adds `position`.
    @inlinable mutating func insert(_ position: Int) { set((), at: position) }
}
