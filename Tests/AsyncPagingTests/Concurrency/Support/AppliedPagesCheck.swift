/// Checks a list against the source's log of fetches: the list must be the page of the last
/// applied refresh, preceded by the load-previous pages applied after it (each coming before
/// the page whose cursor it was fetched with) and followed by the load-more pages applied after
/// it (each continuing the page before it), through the empty pages between them, whose
/// cursors were followed; every page complete and in order, no id twice. With a bound
/// (`bounded`), pages may have been dropped at either end, the refresh page among them: then
/// of any two neighbouring pages, one was fetched against the other.
enum AppliedPagesCheck {
    static func problems(in items: [StressRow], log: [StressSource.Fetch], bounded: Bool = false) -> [String] {
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
            if case .page(let ids, _, _) = log[fetch].answer { ids.isEmpty } else { false }
        }
        func placement(_ fetch: Int) -> StressSide.Placement? { StressSide(log[fetch].side)?.placement }
        /// The fetch whose page `fetch`'s page is placed against (after it for a load-more,
        /// before it for a load-previous), skipping the empty pages of the same side in between;
        /// `.some(nil)` for a page that replaces the list, `nil` when there is none.
        func anchor(of fetch: Int) -> Int?? {
            let side = placement(fetch)
            guard side != .replacesList else { return .some(nil) }
            var current = fetch
            while true {
                guard let cursor = log[current].cursor, cursor < log.count else { return nil } // a load at an end without a cursor
                if isEmptyPage(cursor) && placement(cursor) == side {
                    current = cursor
                    continue
                }
                return .some(cursor)
            }
        }
        func describe(_ fetch: Int) -> String {
            "fetch \(fetch) (\(log[fetch].side), cursor \(String(describing: log[fetch].cursor)))"
        }

        var refreshGroups: [Int] = []
        for (index, group) in groups.enumerated() {
            guard group.fetch < log.count else {
                problems.append("items of unknown fetch \(group.fetch)")
                return problems
            }
            let fetch = log[group.fetch]
            guard case .page(let pageIDs, _, _) = fetch.answer, pageIDs == group.ids else {
                problems.append("group \(index): items \(group.ids) are not the whole page of fetch \(group.fetch) (\(String(describing: fetch.answer)))")
                continue
            }
            if placement(group.fetch) == .replacesList { refreshGroups.append(index) }
        }
        if bounded {
            // Pages may have gone at either end, the refresh page among them. Pages only ever
            // come next to the first or the last page, and drops never join two pages: so of
            // any two neighbours, one was loaded against the other — a load-more page after
            // its left neighbour, or a load-previous page before its right one.
            if refreshGroups.count > 1 { problems.append("the list holds \(refreshGroups.count) refresh pages") }
            for index in groups.indices.dropLast() {
                let (left, right) = (groups[index].fetch, groups[index + 1].fetch)
                let rightFollowsLeft = placement(right) == .appendsAfterCursor && anchor(of: right) == .some(left)
                let leftPrecedesRight = placement(left) == .prependsBeforeCursor && anchor(of: left) == .some(right)
                if !rightFollowsLeft && !leftPrecedesRight {
                    problems.append("groups \(index) and \(index + 1): neither \(describe(left)) nor \(describe(right)) was loaded next to the other")
                }
            }
            return problems
        }
        // An empty refresh page ends the data both ways, so a list with items has one refresh page.
        guard groups.isEmpty || refreshGroups.count == 1, let root = refreshGroups.first ?? (groups.isEmpty ? 0 : nil) else {
            problems.append("the list holds \(refreshGroups.count) refresh pages, not one: \(groups.map { describe($0.fetch) })")
            return problems
        }
        for (index, group) in groups.enumerated() where index != root {
            // Before the refresh page: prepended pages, each before the next group's page; after
            // it: appended pages, each after the previous group's page.
            let expectedSide: StressSide.Placement = index < root ? .prependsBeforeCursor : .appendsAfterCursor
            let neighbour = index < root ? groups[index + 1].fetch : groups[index - 1].fetch
            guard placement(group.fetch) == expectedSide else {
                problems.append("group \(index): \(describe(group.fetch)) is on the wrong side of the refresh page at group \(root)")
                continue
            }
            switch anchor(of: group.fetch) {
            case .none, .some(.none):
                problems.append("group \(index): \(describe(group.fetch)) continues no page")
            case .some(.some(let anchor)):
                if anchor != neighbour {
                    problems.append("group \(index): \(describe(group.fetch)) belongs next to fetch \(anchor), but the list has fetch \(neighbour) there")
                }
            }
        }
        return problems
    }
}
