import AsyncPaging

/// One step of a randomized run.
enum ModelOperation: Equatable, CustomStringConvertible {
    case call(ModelCall)
    /// Moves the clock to the earliest deadline that is not a hang's.
    case advanceToNextDeadline
    /// Moves the clock half way to the next deadline: nothing may happen.
    case advancePartway
    case subscribe
    /// Stops the subscriber at this position among the live ones (modulo their count).
    case unsubscribe(Int)
    case close
    /// update(_:) of the item at this position in the list (modulo its count), or of an id
    /// not in it (`nil`).
    case update(Int?)
    /// remove(ids:) of the items at these positions (modulo the count; -1: an id not in the list).
    case remove([Int])
    /// insertAtTop(_:) of this many new items.
    case insertAtTop(Int)
    /// exportState(anchorIndex:), then close() and a new controller created `restoring:` the
    /// state (refreshing at once when `refreshes`), on which the run goes on.
    case exportAndRestore(anchor: Int?, refreshes: Bool)

    var description: String {
        switch self {
        case .call(let call): "\(call)"
        case .advanceToNextDeadline: "advance to the next deadline"
        case .advancePartway: "advance part way"
        case .subscribe: "subscribe"
        case .unsubscribe(let index): "unsubscribe #\(index)"
        case .close: "close()"
        case .update(let position): "update(the item at \(position.map(String.init) ?? "none"))"
        case .remove(let positions): "remove(the items at \(positions))"
        case .insertAtTop(let count): "insertAtTop(\(count) items)"
        case .exportAndRestore(let anchor, let refreshes):
            "exportState(anchorIndex: \(anchor.map(String.init) ?? "nil")), close, restore (\(refreshes ? "refreshes" : "no refresh"))"
        }
    }

    /// One random operation, or now and then a scroll: two to five loads at one end, each
    /// followed by a clock move to the next deadline, so that runs go far enough for a bounded
    /// feed (FeedConfiguration.maximumItems) to drop pages at both ends and load them again.
    static func randomBatch(using random: inout SplitMix64) -> [ModelOperation] {
        // Now and then an edit or an export → restore among the loads.
        if random.chance(6) { return [random.chance(70) ? randomEdit(using: &random) : randomRestore(using: &random)] }
        guard random.chance(20) else { return [Self.random(using: &random)] }
        let side: ModelCall = random.chance(50) ? .loadMore : .loadPrevious
        let count = 2 + random.below(4)
        return (0..<count).flatMap { _ in [.call(side), .advanceToNextDeadline] }
    }

    /// A random operation: calls and clock moves most often, subscribers now and then, close
    /// rarely (every run closes or releases the controller at its end anyway).
    static func random(using random: inout SplitMix64) -> ModelOperation {
        switch random.below(100) {
        case ..<10: .call(.refresh)
        case ..<14: .call(.refreshFrom(random.pick([-4, 6, 20])))
        case ..<27: .call(.loadMore)
        case ..<40: .call(.loadPrevious)
        case ..<48: .call(.retry(random.chance(50) ? nil : random.pick(FeedSide.allCases)))
        case ..<52: .call(.invalidate)
        case ..<83: .advanceToNextDeadline
        case ..<87: .advancePartway
        case ..<93: .subscribe
        case ..<99: .unsubscribe(random.below(8))
        default: .close
        }
    }

    /// An edit: update, remove or insert at the top.
    static func randomEdit(using random: inout SplitMix64) -> ModelOperation {
        switch random.below(3) {
        case 0: .update(random.chance(85) ? random.below(64) : nil)
        // Now and then with an id not in the list (-1): skipped, as one removed already is.
        case 1: .remove((0..<(1 + random.below(2))).map { _ in random.below(64) } + (random.chance(15) ? [-1] : []))
        default: .insertAtTop(1 + random.below(2))
        }
    }

    /// An export and restore, anchored now and then.
    static func randomRestore(using random: inout SplitMix64) -> ModelOperation {
        .exportAndRestore(anchor: random.chance(50) ? random.below(12) : nil, refreshes: random.chance(30))
    }

    /// The operations of a run that mixes the features (``ModelCheckingTests``, "features
    /// together"): pulls to refresh that merge at the head, long scrolls at both ends that make
    /// the bound drop pages, edits, and export → restore, in orders that reach "merge, then
    /// many loads, then export": one batch in eight is exactly that.
    static func featureMixBatch(using random: inout SplitMix64) -> [ModelOperation] {
        let roll = random.below(100)
        if roll < 12 {
            // Merge, scroll far at the end (and now and then back at the start), export.
            var batch: [ModelOperation] = [.call(.refresh), .advanceToNextDeadline]
            for _ in 0..<(3 + random.below(10)) {
                batch += [.call(random.chance(80) ? .loadMore : .loadPrevious), .advanceToNextDeadline]
                if random.chance(10) { batch.append(randomEdit(using: &random)) }
            }
            if random.chance(50) { batch.append(randomRestore(using: &random)) }
            return batch
        }
        if roll < 27 {
            let side: ModelCall = random.chance(65) ? .loadMore : .loadPrevious
            return (0..<(2 + random.below(6))).flatMap { _ in [.call(side), .advanceToNextDeadline] }
        }
        switch random.below(100) {
        case ..<12: return [.call(.refresh)]
        case ..<14: return [.call(.refreshFrom(random.pick([-4, 6, 20])))]
        case ..<28: return [.call(.loadMore)]
        case ..<36: return [.call(.loadPrevious)]
        case ..<40: return [.call(.retry(random.chance(50) ? nil : random.pick(FeedSide.allCases)))]
        case ..<45: return [.call(.invalidate)]
        case ..<64: return [.advanceToNextDeadline]
        case ..<66: return [.advancePartway]
        case ..<68: return [.subscribe]
        case ..<70: return [.unsubscribe(random.below(8))]
        case ..<86: return [randomEdit(using: &random)]
        case ..<96: return [randomRestore(using: &random)]
        default: return [.call(.retry(nil))]
        }
    }
}
