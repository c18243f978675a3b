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

    var description: String {
        switch self {
        case .call(let call): "\(call)"
        case .advanceToNextDeadline: "advance to the next deadline"
        case .advancePartway: "advance part way"
        case .subscribe: "subscribe"
        case .unsubscribe(let index): "unsubscribe #\(index)"
        case .close: "close()"
        }
    }

    /// One random operation, or now and then a scroll: two to five loads at one end, each
    /// followed by a clock move to the next deadline, so that runs go far enough for a bounded
    /// feed (FeedConfiguration.maximumItems) to drop pages at both ends and load them again.
    static func randomBatch(using random: inout SplitMix64) -> [ModelOperation] {
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
        case ..<83: .advanceToNextDeadline
        case ..<87: .advancePartway
        case ..<93: .subscribe
        case ..<99: .unsubscribe(random.below(8))
        default: .close
        }
    }
}
