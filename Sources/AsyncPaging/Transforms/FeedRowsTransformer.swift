/// Keeps the rows a ``FeedTransform`` makes of a feed's list up to date as updates come, and
/// says what changed in row indices: the engine of ``FeedController/rows(_:)``, for code that
/// follows ``FeedController/updates`` itself (a screen model).
///
/// Give it every update, or only some (a reader that skips versions): ``apply(_:)`` returns the
/// rows of that update's list, and their change since the rows it returned before.
///
/// What it costs, per update:
/// - A page that lands at either end (or items inserted at the top): the transform's functions
///   for the page's items only, the rows written once into append-only storage that the
///   returned ``FeedRows`` share, and a byte of bookkeeping an item. The separator between the
///   new page and the list, and the header or footer, are made again only when their
///   neighbours changed.
/// - Pages the bound dropped: no function runs, except the header (or footer) made again for
///   the new first (or last) kept item, and the separator of an item whose kept neighbour went.
/// - An edit (`update`, `remove(ids:)`): the functions for the edited items and the separators
///   next to them; the rows are then copied into new storage (O(rows), no function called).
/// - An update that skipped an edit's version, a refresh, or a reload
///   (``FeedController/invalidate()``): the whole list is transformed again (its change is
///   ``FeedRowsChange/replaced``).
///
/// Not thread-safe: one owner (the task iterating the rows) calls it.
public final class FeedRowsTransformer<Item: Sendable, Row: Sendable> {
    /// The transform it applies.
    public let transform: FeedTransform<Item, Row>
    // The state below is read and written only by the transformer's one owner (it is not
    // `Sendable`), never through overlapping accesses: release builds skip the dynamic
    // exclusivity checks of its class properties (~2,000 instructions a page of 20 items,
    // measured with callgrind); debug builds, which run the tests, keep them.
    //
    // - `marks`: per item of the list, whether it is shown and has a separator before it.
    // - `source`: the list the rows were made of last; `nil` before the first update.
    // - `latest`: the rows returned last.
    #if DEBUG
    @usableFromInline var store = ItemStore<Row>()
    @usableFromInline var marks = _RowMarks()
    @usableFromInline var hasHeader = false
    @usableFromInline var hasFooter = false
    @usableFromInline var startReached = false
    @usableFromInline var endReached = false
    @usableFromInline var source: FeedSnapshot<Item>?
    @usableFromInline var latest: FeedRows<Row>?
    #else
    @exclusivity(unchecked) @usableFromInline var store = ItemStore<Row>()
    @exclusivity(unchecked) @usableFromInline var marks = _RowMarks()
    @exclusivity(unchecked) @usableFromInline var hasHeader = false
    @exclusivity(unchecked) @usableFromInline var hasFooter = false
    @exclusivity(unchecked) @usableFromInline var startReached = false
    @exclusivity(unchecked) @usableFromInline var endReached = false
    @exclusivity(unchecked) @usableFromInline var source: FeedSnapshot<Item>?
    @exclusivity(unchecked) @usableFromInline var latest: FeedRows<Row>?
    #endif

    /// Creates a transformer with no rows yet.
    @inlinable public init(_ transform: FeedTransform<Item, Row>) {
        self.transform = transform
    }

    /// The rows returned last, `nil` before the first update.
    @inlinable public var rows: FeedRows<Row>? { latest }

    /// Brings the rows up to the list and load states of `update`, and returns them with their
    /// change since the rows returned before (``FeedRowsChange/replaced`` for the first).
    // Inlinable, with the load path it calls, so that the app's module runs it specialized for
    // its `Item` and `Row` (unspecialized, generic code looks up metadata at run time); the
    // edit path, rare, is not.
    @discardableResult
    @inlinable public func apply(_ update: FeedUpdate<Item>) -> FeedRows<Row> {
        let snapshot = update.snapshot
        let startReached = update.loadStates.loadPrevious == .reachedEnd
        let endReached = update.loadStates.loadMore == .reachedEnd
        let change: FeedRowsChange
        if let old = source {
            let listChange: FeedChange? = if snapshot.version == old.version {
                nil
            } else if snapshot.version == old.version &+ 1 {
                snapshot.change
            } else {
                snapshot.change(since: old)
            }
            switch listChange {
            case nil:
                change = applyEnds(FeedEndsChange(), of: snapshot, startReached: startReached, endReached: endReached)
            case .appended(let range)?:
                change = applyEnds(
                    FeedEndsChange(insertedAtEnd: range.count), of: snapshot, startReached: startReached, endReached: endReached)
            case .prepended(let range)?:
                change = applyEnds(
                    FeedEndsChange(insertedAtStart: range.count), of: snapshot, startReached: startReached, endReached: endReached)
            case .extended(let prepended, let appended)?:
                change = applyEnds(
                    FeedEndsChange(insertedAtStart: prepended.count, insertedAtEnd: appended.count), of: snapshot,
                    startReached: startReached, endReached: endReached)
            case .ends(let ends)?:
                change = applyEnds(ends, of: snapshot, startReached: startReached, endReached: endReached)
            case .updated(let indices)?:
                change = applyEdit(updated: indices, removed: [], of: snapshot, startReached: startReached, endReached: endReached)
            case .removed(let indices)?:
                change = applyEdit(updated: [], removed: indices, of: snapshot, startReached: startReached, endReached: endReached)
            case .initial?, .replaced?, .reloaded?:
                // A reload around the row on screen is a new list, like a refresh.
                rebuild(snapshot, startReached: startReached, endReached: endReached)
                change = .replaced
            }
        } else {
            rebuild(snapshot, startReached: startReached, endReached: endReached)
            change = .replaced
        }
        source = snapshot
        let rows = FeedRows(
            version: snapshot.version, generation: snapshot.generation, change: change, status: update.status,
            loadStates: update.loadStates, contents: store.contents)
        latest = rows
        return rows
    }

    // MARK: The whole list

    /// Makes every row of `snapshot` again.
    @inlinable func rebuild(_ snapshot: FeedSnapshot<Item>, startReached: Bool, endReached: Bool) {
        store = ItemStore()
        marks.removeAll()
        hasHeader = false
        hasFooter = false
        self.startReached = startReached
        self.endReached = endReached
        var rows: [Row] = []
        rows.reserveCapacity(snapshot.count)
        var previous: Item? = nil
        appendRows(of: snapshot, from: 0, to: snapshot.count, after: &previous, into: &rows)
        store.append(contentsOf: rows)
        addHeaderAndFooter(snapshot)
    }

    /// Transforms items `start..<end` of `snapshot`, appending their marks and rows; `previous`
    /// is the kept item before them, if any, and becomes the last kept item.
    @inlinable func appendRows(
        of snapshot: FeedSnapshot<Item>, from start: Int, to end: Int, after previous: inout Item?, into rows: inout [Row]
    ) {
        let filter = transform.filter
        let separator = transform.separator
        let map = transform.map
        var index = start
        // The item is read once, as an optional: the separator takes it and the one before as
        // they are, and it becomes `previous` (its last use: a move). (Binding `previous` and wrapping the
        // item for each call copied each post three times: a retain and a release per string.)
        while index < end {
            let item: Item? = snapshot[index]
            index += 1
            guard filter?(item.unsafelyUnwrapped) ?? true else {
                marks.append(0)
                continue
            }
            var itemMarks = _RowMarks.kept
            if let separator, previous != nil, let row = separator(previous, item) {
                rows.append(row)
                itemMarks |= _RowMarks.separatorBefore
            }
            rows.append(map(item.unsafelyUnwrapped))
            marks.append(itemMarks)
            previous = item
        }
    }

    /// Adds the header and the footer the list lacks and should have. Returns the rows added at
    /// the start and at the end.
    @discardableResult
    @inlinable func addHeaderAndFooter(_ snapshot: FeedSnapshot<Item>) -> (atStart: Int, atEnd: Int) {
        guard let separator = transform.separator else { return (0, 0) }
        var added = (atStart: 0, atEnd: 0)
        if !hasHeader, startReached, let first = marks.firstKept(), let header = separator(nil, snapshot[first]) {
            store.prepend(contentsOf: CollectionOfOne(header))
            hasHeader = true
            added.atStart = 1
        }
        if !hasFooter, endReached, let last = marks.lastKept(), let footer = separator(snapshot[last], nil) {
            store.append(contentsOf: CollectionOfOne(footer))
            hasFooter = true
            added.atEnd = 1
        }
        return added
    }

    // MARK: Pages at the ends

    /// Applies items removed and added at the ends (`ends`, in items of the older and newer
    /// lists), and the reached ends; returns the change in rows.
    @inlinable func applyEnds(
        _ ends: FeedEndsChange, of snapshot: FeedSnapshot<Item>, startReached: Bool, endReached: Bool
    ) -> FeedRowsChange {
        let startChanged = ends.removedAtStart > 0 || ends.insertedAtStart > 0 || startReached != self.startReached
        let endChanged = ends.removedAtEnd > 0 || ends.insertedAtEnd > 0 || endReached != self.endReached
        self.startReached = startReached
        self.endReached = endReached
        var rowsChange = FeedEndsChange()
        // The older list's ends go first: the header and footer (made again below), the items
        // dropped, and the separator of the first kept item left, whose kept neighbour went.
        if startChanged && hasHeader {
            rowsChange.removedAtStart += 1
            hasHeader = false
        }
        if ends.removedAtStart > 0 {
            for index in 0..<ends.removedAtStart { rowsChange.removedAtStart += _RowMarks.rowCount(marks[index]) }
            marks.dropFirst(ends.removedAtStart)
            if let first = marks.firstKept(), marks[first] & _RowMarks.separatorBefore != 0 {
                marks[first] &= ~_RowMarks.separatorBefore
                rowsChange.removedAtStart += 1
            }
        }
        if endChanged && hasFooter {
            rowsChange.removedAtEnd += 1
            hasFooter = false
        }
        if ends.removedAtEnd > 0 {
            for index in (marks.count - ends.removedAtEnd)..<marks.count {
                rowsChange.removedAtEnd += _RowMarks.rowCount(marks[index])
            }
            marks.dropLast(ends.removedAtEnd)
        }
        if ends.removedAtStart > 0 || ends.removedAtEnd > 0, marks.firstKept() == nil {
            // No kept item is left: the header and footer go with the last of them.
            if hasHeader {
                rowsChange.removedAtStart += 1
                hasHeader = false
            }
            if hasFooter {
                rowsChange.removedAtEnd += 1
                hasFooter = false
            }
        }
        store.dropFirst(rowsChange.removedAtStart)
        store.dropLast(rowsChange.removedAtEnd)
        // Then the newer list's new items: at the start, with the separator between the last
        // new kept item and the first kept item that was there.
        if ends.insertedAtStart > 0 {
            var rows: [Row] = []
            rows.reserveCapacity(ends.insertedAtStart * 2 + 1)
            let kept = marks
            marks = _RowMarks()
            var previous: Item? = nil
            appendRows(of: snapshot, from: 0, to: ends.insertedAtStart, after: &previous, into: &rows)
            let newMarks = Array(marks.storage[marks.head...])
            marks = kept
            if let last = previous, let separator = transform.separator, let first = marks.firstKept(),
               let row = separator(last, snapshot[ends.insertedAtStart + first]) {
                rows.append(row)
                marks[first] |= _RowMarks.separatorBefore
            }
            marks.prepend(newMarks)
            store.prepend(contentsOf: rows)
            rowsChange.insertedAtStart += rows.count
        }
        if ends.insertedAtEnd > 0 {
            var rows: [Row] = []
            rows.reserveCapacity(ends.insertedAtEnd * 2 + 1)
            var previous = marks.lastKept().map { snapshot[$0] }
            appendRows(of: snapshot, from: snapshot.count - ends.insertedAtEnd, to: snapshot.count, after: &previous, into: &rows)
            store.append(contentsOf: rows)
            rowsChange.insertedAtEnd += rows.count
        }
        let added = addHeaderAndFooter(snapshot)
        rowsChange.insertedAtStart += added.atStart
        rowsChange.insertedAtEnd += added.atEnd
        if rowsChange == FeedEndsChange() { return .unchanged }
        return .ends(rowsChange)
    }

    // MARK: Edits

    /// Applies an edit: the items at `updated` (indices of both lists) changed, or the items at
    /// `removed` (indices of the older list) went. Runs the functions for the changed items and
    /// the separators next to them (and the header or footer when its item changed), copies the
    /// other rows into new storage, and returns the change in rows.
    @usableFromInline func applyEdit(
        updated: [Int], removed: [Int], of snapshot: FeedSnapshot<Item>, startReached: Bool, endReached: Bool
    ) -> FeedRowsChange {
        let filter = transform.filter
        let separator = transform.separator
        let map = transform.map
        let oldRows = store.contents
        let oldHeaderRows = hasHeader ? 1 : 0
        let oldFirstKept = marks.firstKept()
        let oldLastKept = marks.lastKept()
        var newMarks = _RowMarks()
        // The item rows of the newer list (no header or footer); indices below are relative to
        // the item rows of each list.
        var rows: [Row] = []
        rows.reserveCapacity(oldRows.count + 2)
        var removedRows: [Int] = []
        var insertedRows: [Int] = []
        var updatedRows: [Int] = []
        var oldRow = 0
        var updatedCursor = 0
        var removedCursor = 0
        var newIndex = 0
        var previous: Item? = nil // the last kept item of the newer list so far
        var neighbourChanged = false // a kept item changed or went since the last kept item
        // The newer list's first and last kept items: their older index, and whether edited.
        var first: (oldIndex: Int, edited: Bool)? = nil
        var last: (oldIndex: Int, edited: Bool)? = nil
        for oldIndex in 0..<marks.count {
            let oldMarks = marks[oldIndex]
            var separatorRow: Int? = nil
            if oldMarks & _RowMarks.separatorBefore != 0 {
                separatorRow = oldRow
                oldRow += 1
            }
            var itemRow: Int? = nil
            if oldMarks & _RowMarks.kept != 0 {
                itemRow = oldRow
                oldRow += 1
            }
            if removedCursor < removed.count && removed[removedCursor] == oldIndex {
                removedCursor += 1
                if let separatorRow { removedRows.append(separatorRow) }
                if let itemRow {
                    removedRows.append(itemRow)
                    neighbourChanged = true
                }
                continue
            }
            let item = snapshot[newIndex]
            let isUpdated = updatedCursor < updated.count && updated[updatedCursor] == newIndex
            if isUpdated { updatedCursor += 1 }
            newIndex += 1
            let kept = isUpdated ? (filter?(item) ?? true) : itemRow != nil
            guard kept else {
                if let separatorRow { removedRows.append(separatorRow) }
                if let itemRow {
                    removedRows.append(itemRow)
                    neighbourChanged = true
                }
                newMarks.append(0)
                continue
            }
            var itemMarks = _RowMarks.kept
            if isUpdated || neighbourChanged {
                // Its separator is made again: it or the kept item before it changed.
                if let before = previous, let separator, let row = separator(before, item) {
                    itemMarks |= _RowMarks.separatorBefore
                    if separatorRow != nil { updatedRows.append(rows.count) } else { insertedRows.append(rows.count) }
                    rows.append(row)
                } else if let separatorRow {
                    removedRows.append(separatorRow)
                }
            } else if let separatorRow {
                itemMarks |= _RowMarks.separatorBefore
                rows.append(oldRows[oldHeaderRows + separatorRow])
            }
            if let itemRow {
                if isUpdated {
                    updatedRows.append(rows.count)
                    rows.append(map(item))
                } else {
                    rows.append(oldRows[oldHeaderRows + itemRow])
                }
            } else {
                insertedRows.append(rows.count)
                rows.append(map(item))
            }
            newMarks.append(itemMarks)
            previous = item
            neighbourChanged = isUpdated
            if first == nil { first = (oldIndex, isUpdated) }
            last = (oldIndex, isUpdated)
        }
        marks = newMarks
        // The header and footer: made again when their kept item is another one, or was edited,
        // or the end was just reached; kept as they were otherwise.
        var header: Row? = nil
        if startReached, let first, let separator {
            if hasHeader && self.startReached && first.oldIndex == oldFirstKept && !first.edited {
                header = oldRows[0]
            } else {
                header = separator(nil, snapshot[marks.firstKept()!])
            }
        }
        let headerRemade = header != nil && !(hasHeader && self.startReached && first?.oldIndex == oldFirstKept && first?.edited == false)
        var footer: Row? = nil
        if endReached, let last, let separator {
            if hasFooter && self.endReached && last.oldIndex == oldLastKept && !last.edited {
                footer = oldRows[oldRows.count - 1]
            } else {
                footer = separator(snapshot[marks.lastKept()!], nil)
            }
        }
        let footerRemade = footer != nil && !(hasFooter && self.endReached && last?.oldIndex == oldLastKept && last?.edited == false)
        // The change in indices of the whole lists.
        let newHeaderRows = header != nil ? 1 : 0
        var removedIndices = removedRows.map { $0 + oldHeaderRows }
        var insertedIndices = insertedRows.map { $0 + newHeaderRows }
        var updatedIndices = updatedRows.map { $0 + newHeaderRows }
        if hasHeader && header == nil { removedIndices.insert(0, at: 0) }
        if !hasHeader && header != nil { insertedIndices.insert(0, at: 0) }
        if hasHeader && headerRemade { updatedIndices.insert(0, at: 0) }
        let newCount = newHeaderRows + rows.count + (footer != nil ? 1 : 0)
        if hasFooter && footer == nil { removedIndices.append(oldRows.count - 1) }
        if !hasFooter && footer != nil { insertedIndices.append(newCount - 1) }
        if hasFooter && footerRemade { updatedIndices.append(newCount - 1) }
        store = ItemStore()
        if let header { store.append(contentsOf: CollectionOfOne(header)) }
        store.append(contentsOf: rows)
        if let footer { store.append(contentsOf: CollectionOfOne(footer)) }
        hasHeader = header != nil
        hasFooter = footer != nil
        self.startReached = startReached
        self.endReached = endReached
        if removedIndices.isEmpty && insertedIndices.isEmpty && updatedIndices.isEmpty { return .unchanged }
        return .rows(removed: removedIndices.sorted(), inserted: insertedIndices, updated: updatedIndices.sorted())
    }
}
