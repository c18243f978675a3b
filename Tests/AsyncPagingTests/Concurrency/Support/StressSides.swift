import AsyncPaging

/// The sides the stress test drives, in one place: what a caller does for a side, what it sends,
/// and where that side's pages go in the list. A third side (a load-previous at the start of
/// the list) is added here: a case, its call and request, and its placement; the checks
/// (``AppliedPagesCheck``, the event audit) go through ``StressSide/allCases``.
enum StressSide: CaseIterable, Sendable {
    case refresh
    case loadMore

    /// Where a side's page goes.
    enum Placement {
        /// It replaces the list; its request has no cursor.
        case replacesList
        /// It follows the page whose fetch its cursor names.
        case appendsAfterCursor
    }

    var feedSide: FeedSide {
        switch self {
        case .refresh: .refresh
        case .loadMore: .loadMore
        }
    }

    init?(_ side: FeedSide) {
        guard let match = Self.allCases.first(where: { $0.feedSide == side }) else { return nil }
        self = match
    }

    var placement: Placement {
        switch self {
        case .refresh: .replacesList
        case .loadMore: .appendsAfterCursor
        }
    }

    /// The awaited call of this side.
    func call<Item, Cursor>(on feed: FeedController<Item, Cursor>) async -> LoadResult {
        switch self {
        case .refresh: await feed.refresh()
        case .loadMore: await feed.loadMore()
        }
    }

    /// The fire-and-forget request of this side.
    var request: FeedRequest {
        switch self {
        case .refresh: .refresh
        case .loadMore: .loadMore
        }
    }
}

/// Checks a list against the source's log of fetches: the list must be the page of the last
/// applied refresh followed by the load-more pages applied after it, each complete and in
/// order, each continuing the page before it (through the empty pages between them, whose
/// cursors were followed), with no id twice.
enum AppliedPagesCheck {
    static func problems(in items: [StressRow], log: [StressSource.Fetch]) -> [String] {
        var problems: [String] = []
        let ids = items.map(\.id)
        if Set(ids).count != ids.count { problems.append("duplicate ids in the list") }

        // The list, cut into runs of items from one fetch.
        var groups: [(fetch: Int, ids: [Int])] = []
        for item in items {
            if groups.last?.fetch == item.fetch {
                groups[groups.count - 1].ids.append(item.id)
            } else {
                groups.append((item.fetch, [item.id]))
            }
        }
        func isEmptyPage(_ fetch: Int) -> Bool {
            if case .page(let ids, _) = log[fetch].answer { ids.isEmpty } else { false }
        }
        /// The fetch whose page `fetch`'s page follows, skipping the empty pages in between; nil
        /// for a page that replaces the list.
        func predecessor(of fetch: Int) -> Int?? {
            var current = fetch
            while true {
                guard let side = StressSide(log[current].side) else { return .some(nil) }
                switch side.placement {
                case .replacesList:
                    return .some(nil)
                case .appendsAfterCursor:
                    guard let cursor = log[current].cursor else { return nil } // a load-more without a cursor
                    guard cursor < log.count else { return nil }
                    if isEmptyPage(cursor) && StressSide(log[cursor].side)?.placement == .appendsAfterCursor {
                        current = cursor
                        continue
                    }
                    if isEmptyPage(cursor) { return .some(nil) } // an empty refresh page started the list
                    return .some(cursor)
                }
            }
        }

        for (index, group) in groups.enumerated() {
            guard group.fetch < log.count else {
                problems.append("items of unknown fetch \(group.fetch)")
                continue
            }
            let fetch = log[group.fetch]
            guard case .page(let pageIDs, _) = fetch.answer, pageIDs == group.ids else {
                problems.append("group \(index): items \(group.ids) are not the whole page of fetch \(group.fetch) (\(String(describing: fetch.answer)))")
                continue
            }
            switch predecessor(of: group.fetch) {
            case .none:
                problems.append("group \(index): fetch \(group.fetch) (\(fetch.side), cursor \(String(describing: fetch.cursor))) continues no page")
            case .some(let previous):
                let expected = index == 0 ? nil : groups[index - 1].fetch
                if previous != expected {
                    problems.append("group \(index): fetch \(group.fetch) (\(fetch.side), cursor \(String(describing: fetch.cursor))) continues \(String(describing: previous)), but the list has \(String(describing: expected)) before it")
                }
            }
        }
        return problems
    }
}
