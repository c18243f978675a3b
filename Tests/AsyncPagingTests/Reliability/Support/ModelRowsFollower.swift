import AsyncPaging
import AsyncPagingTesting

/// A row of the randomized runs' transformed subscriber: an item, a group row between items of
/// different groups (`id / 4`), a header and a footer.
enum ModelRow: Hashable, Sendable {
    case item(Int)
    case group(Int)
    case header(Int)
    case footer(Int)
}

/// The transformed subscribers of a randomized run: the rows of the controller's list through a
/// transform that filters (ids ending in 3 or 8 are left out), separates groups and maps, kept
/// by two ``FeedRowsTransformer``s — one given every list the controller publishes (through a
/// ``PublishedListLog``), one given only the list at each check (skipping versions, as a slow
/// reader does). After every step both must hold the transform of the whole list made from
/// scratch, and a subscriber applying each change to its own array of rows must end with
/// exactly those rows.
final class ModelRowsFollower {
    static let transform = FeedTransform<FeedRow, ModelRow>(
        filter: { $0.id % 5 != 3 },
        separator: { before, after in
            switch (before, after) {
            case (nil, let after?): .header(after.id / 4)
            case (let before?, nil): .footer(before.id / 4)
            case (let before?, let after?): before.id / 4 != after.id / 4 ? .group(after.id / 4) : nil
            case (nil, nil): nil
            }
        },
        map: { .item($0.id) })

    let log: PublishedListLog<FeedRow>
    private var applied = 0
    private let everyVersion = FeedRowsTransformer(transform)
    private var everyVersionMirror: [ModelRow] = []
    private let sampled = FeedRowsTransformer(transform)
    private var sampledMirror: [ModelRow] = []
    /// Changes that were not `.replaced`, for coverage.
    private(set) var incrementalChanges = 0

    init(_ feed: RowFeed) async {
        log = await PublishedListLog(feed)
    }

    /// Brings both transformers up to the controller's lists and checks them; the description
    /// of the first mismatch, if any.
    func check(current: FeedSnapshot<FeedRow>, status: FeedStatus, loadStates: FeedLoadStates) -> String? {
        let lists = log.lists
        while applied < lists.count {
            let list = lists[applied]
            applied += 1
            if let mismatch = Self.apply(
                FeedUpdate(snapshot: list, status: status, loadStates: loadStates), to: everyVersion,
                mirror: &everyVersionMirror, who: "the every-version subscriber")
            {
                return mismatch
            }
            if case .replaced = everyVersion.rows!.change {} else { incrementalChanges += 1 }
        }
        return Self.apply(
            FeedUpdate(snapshot: current, status: status, loadStates: loadStates), to: sampled, mirror: &sampledMirror,
            who: "the sampling subscriber")
    }

    private static func apply(
        _ update: FeedUpdate<FeedRow>, to transformer: FeedRowsTransformer<FeedRow, ModelRow>, mirror: inout [ModelRow],
        who: String
    ) -> String? {
        let previous = mirror
        let rows = transformer.apply(update)
        let expected = transform.rows(
            of: update.snapshot, startReached: update.loadStates.loadPrevious == .reachedEnd,
            endReached: update.loadStates.loadMore == .reachedEnd)
        guard Array(rows) == expected else {
            return "\(who): rows of v\(update.snapshot.version) \(Array(rows)) != from scratch \(expected) (change \(rows.change))"
        }
        rows.change.apply(to: &mirror, from: rows)
        guard mirror == expected else {
            return "\(who): applying \(rows.change) to \(previous) gave \(mirror), not \(expected) (list v\(update.snapshot.version) \(update.snapshot.map(\.id)))"
        }
        return nil
    }
}
