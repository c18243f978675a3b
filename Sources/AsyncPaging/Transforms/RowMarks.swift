/// What a ``FeedRowsTransformer`` keeps of each source item, in list order: whether the filter
/// kept it and whether a separator row comes before its row. One byte an item, in an array that
/// grows and shrinks at both ends (room is kept before the first item for prepends).
@usableFromInline struct _RowMarks {
    /// The item was kept: it has a row.
    @inlinable static var kept: UInt8 { 1 }
    /// A separator row comes before the item's row (the separator between it and the kept item
    /// before it).
    @inlinable static var separatorBefore: UInt8 { 2 }

    @usableFromInline var storage: [UInt8] = []
    /// The slot of the first item.
    @usableFromInline var head = 0

    @inlinable init() {}

    @inlinable var count: Int { storage.count - head }

    @inlinable subscript(index: Int) -> UInt8 {
        get { storage[head + index] }
        set { storage[head + index] = newValue }
    }

    /// The rows of an item with marks `marks`: its separator and its row.
    @inlinable static func rowCount(_ marks: UInt8) -> Int {
        Int(marks & kept) + Int((marks & separatorBefore) >> 1)
    }

    @inlinable mutating func append(_ marks: UInt8) { storage.append(marks) }

    /// Puts `marks` before the first item, in order.
    @inlinable mutating func prepend(_ marks: [UInt8]) {
        if head < marks.count {
            let room = Swift.max(marks.count, count, 16)
            var grown = [UInt8](repeating: 0, count: room)
            grown.append(contentsOf: storage[head...])
            storage = grown
            head = room
        }
        head -= marks.count
        storage.replaceSubrange(head..<(head + marks.count), with: marks)
    }

    @inlinable mutating func dropFirst(_ dropped: Int) {
        head += dropped
        if head > 4_096 && head > storage.count / 2 { // keep the dropped slots from piling up
            storage.removeFirst(head)
            head = 0
        }
    }

    @inlinable mutating func dropLast(_ dropped: Int) { storage.removeLast(dropped) }

    /// The index of the first kept item, if any.
    @inlinable func firstKept() -> Int? {
        var index = head
        while index < storage.count {
            if storage[index] & Self.kept != 0 { return index - head }
            index += 1
        }
        return nil
    }

    /// The index of the last kept item, if any.
    @inlinable func lastKept() -> Int? {
        var index = storage.count - 1
        while index >= head {
            if storage[index] & Self.kept != 0 { return index - head }
            index -= 1
        }
        return nil
    }

    /// Removes every item.
    @inlinable mutating func removeAll() {
        storage.removeAll(keepingCapacity: true)
        head = 0
    }
}
