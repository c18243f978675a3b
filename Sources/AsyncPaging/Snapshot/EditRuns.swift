/// Logical positions in ascending order, each with a value, held in runs of at most
/// ``maximumRun`` entries: the edits of an ``_EditOverlay`` (removed positions, replaced
/// positions and their replacements).
///
/// A value type whose runs are arrays, so an edit that changes a copy copies the list of runs
/// (a reference per run, O(count / 64)) and the one run it changes (at most 128 entries), never
/// every entry: an overlay shared with older snapshots stays as it is, and an edit's cost stays
/// bounded however many edits came before it (a flat array copied every edit cost a retain per
/// replaced item, and folding the edits into the list at a limit cost O(list)).
@usableFromInline
struct _EditRuns<Value> {
    /// The runs' positions, ascending across runs; no run is empty.
    @usableFromInline var keys: [[Int]]
    /// `values[r][i]` goes with `keys[r][i]`.
    @usableFromInline var values: [[Value]]
    /// `before[r]`: the entries of the runs before run `r`.
    @usableFromInline var before: [Int]
    /// The entries.
    @usableFromInline var count: Int

    /// A run that grows past this splits in two.
    @inlinable static var maximumRun: Int { 128 }

    @inlinable init() {
        keys = []
        values = []
        before = []
        count = 0
    }

    @inlinable var isEmpty: Bool { count == 0 }

    /// The run that holds `position` or would: the last whose first position is at most
    /// `position` (`0` if none is).
    @inlinable func run(for position: Int) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle][0] <= position { low = middle + 1 } else { high = middle }
        }
        return Swift.max(0, low - 1)
    }

    /// How many of `run`'s positions are below `position`.
    @inlinable static func countBelow(_ position: Int, in run: [Int]) -> Int {
        var low = 0
        var high = run.count
        while low < high {
            let middle = (low + high) / 2
            if run[middle] < position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// How many positions are below `position`. O(log count).
    @inlinable func countBelow(_ position: Int) -> Int {
        guard count > 0 else { return 0 }
        let run = run(for: position)
        return before[run] + Self.countBelow(position, in: keys[run])
    }

    /// Where `position` is (run and slot), if it is held.
    @inlinable func find(_ position: Int) -> (run: Int, slot: Int)? {
        guard count > 0 else { return nil }
        let run = run(for: position)
        let slot = Self.countBelow(position, in: keys[run])
        guard slot < keys[run].count, keys[run][slot] == position else { return nil }
        return (run, slot)
    }

    @inlinable func contains(_ position: Int) -> Bool { find(position) != nil }

    /// The value at `position`, if it is held.
    @inlinable func value(at position: Int) -> Value? {
        guard let (run, slot) = find(position) else { return nil }
        return values[run][slot]
    }

    /// Holds `value` at `position`, replacing the value there if any.
    @inlinable mutating func set(_ value: Value, at position: Int) {
        guard count > 0 else {
            keys = [[position]]
            values = [[value]]
            before = [0]
            count = 1
            return
        }
        let run = run(for: position)
        let slot = Self.countBelow(position, in: keys[run])
        if slot < keys[run].count, keys[run][slot] == position {
            values[run][slot] = value
            return
        }
        keys[run].insert(position, at: slot)
        values[run].insert(value, at: slot)
        count += 1
        for later in (run + 1)..<before.count { before[later] += 1 }
        if keys[run].count > Self.maximumRun { split(run) }
    }

    /// Splits `run` into two halves.
    @inlinable mutating func split(_ run: Int) {
        let half = keys[run].count / 2
        let upperKeys = Array(keys[run][half...])
        let upperValues = Array(values[run][half...])
        keys[run].removeSubrange(half...)
        values[run].removeSubrange(half...)
        keys.insert(upperKeys, at: run + 1)
        values.insert(upperValues, at: run + 1)
        before.insert(before[run] + half, at: run + 1)
    }

    /// Removes the entry at `position`; its value, or `nil` if none was there.
    @inlinable @discardableResult mutating func remove(_ position: Int) -> Value? {
        guard let (run, slot) = find(position) else { return nil }
        keys[run].remove(at: slot)
        let value = values[run].remove(at: slot)
        count -= 1
        for later in (run + 1)..<before.count { before[later] -= 1 }
        if keys[run].isEmpty {
            keys.remove(at: run)
            values.remove(at: run)
            before.remove(at: run)
        }
        return value
    }

    /// The positions from `lower` up to (not including) `upper`, ascending.
    @inlinable func positions(from lower: Int, to upper: Int) -> [Int] {
        guard count > 0, lower < upper else { return [] }
        var result: [Int] = []
        var run = run(for: lower)
        var slot = Self.countBelow(lower, in: keys[run])
        while run < keys.count {
            let positions = keys[run]
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
    @inlinable var allPositions: [Int] { Array(keys.joined()) }

    /// The entries whose position is in `first..<end`, and how many were below and above.
    /// O(count / 64 + entries dropped).
    @inlinable func keeping(from first: Int, to end: Int) -> (kept: Self, below: Int, above: Int) {
        let below = countBelow(first)
        let above = count - countBelow(end)
        guard below > 0 || above > 0 else { return (self, 0, 0) }
        var kept = Self()
        guard count - below - above > 0 else { return (kept, below, above) }
        for run in keys.indices {
            let positions = keys[run]
            guard positions[positions.count - 1] >= first, positions[0] < end else { continue }
            if positions[0] >= first && positions[positions.count - 1] < end {
                kept.keys.append(positions)
                kept.values.append(values[run])
            } else {
                let lower = Self.countBelow(first, in: positions)
                let upper = Self.countBelow(end, in: positions)
                kept.keys.append(Array(positions[lower..<upper]))
                kept.values.append(Array(values[run][lower..<upper]))
            }
            kept.before.append(kept.count)
            kept.count += kept.keys[kept.keys.count - 1].count
        }
        return (kept, below, above)
    }
}

extension _EditRuns: Sendable where Value: Sendable {}

extension _EditRuns where Value == Void {
    /// The number `m` of positions `p[j]` (ascending, `j` from 0) with `p[j] - offset - j <= index`
    /// (that quantity never decreases with `j`): for removed positions, how many come before
    /// the item shown at `index`. O(log count).
    @inlinable func countRemoved(beforeVisible index: Int, offset: Int) -> Int {
        guard count > 0 else { return 0 }
        // The last run whose first entry meets the condition.
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle][0] - offset - before[middle] <= index { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let run = low - 1
        let positions = keys[run]
        let start = before[run]
        var lower = 0
        var upper = positions.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if positions[middle] - offset - (start + middle) <= index { lower = middle + 1 } else { upper = middle }
        }
        return start + lower
    }

    /// Adds `position`.
    @inlinable mutating func insert(_ position: Int) { set((), at: position) }
}
