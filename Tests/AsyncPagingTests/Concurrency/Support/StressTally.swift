import AsyncPaging

/// The stress test's counters and findings, shared by its tasks and readable by the stall
/// detector's thread (a lock of the test's own, never one the engine holds).
final class StressTally: Sendable {
    struct Counts: Sendable {
        var callsStarted = 0
        var callsReturned = 0
        var sends = 0
        var closes = 0
        var subscriptions = 0
        var cancelledSubscribers = 0
        var brokenSubscribers = 0
        var droppedStreams = 0
        var rounds = 0
        var fetches = 0
        /// Items of load-previous and load-more pages in the lists checked after quiescence.
        var prependedItemsChecked = 0
        var appendedItemsChecked = 0
        /// The rounds that mix features (``FeatureMixRound``): edits, exports checked, restores
        /// checked, landings after which the bound was checked.
        var mixRounds = 0
        var edits = 0
        var exports = 0
        var restores = 0
        var boundChecks = 0
        /// Invalidations (called, or sent through a followed sequence) and reported rows.
        var invalidations = 0
        var rowReports = 0
    }

    private let state = Locked((counts: Counts(), problems: [String]()))

    var counts: Counts { state.withLock { $0.counts } }
    var problems: [String] { state.withLock { $0.problems } }

    func count(_ change: (inout Counts) -> Void) {
        state.withLock { change(&$0.counts) }
    }

    func problem(_ message: String) {
        state.withLock { $0.problems.append(message) }
    }

    var summary: String {
        let counts = self.counts
        let subscriptions = """
            \(counts.subscriptions) subscriptions (\(counts.cancelledSubscribers) left by task cancellation, \
            \(counts.brokenSubscribers) by break, \(counts.droppedStreams) dropped unread)
            """
        if counts.mixRounds > 0 {
            return """
                \(counts.mixRounds) rounds mixing features, \(counts.fetches) fetches, \(counts.edits) edits, \
                \(counts.exports) exports checked, \(counts.restores) restores checked, \(counts.boundChecks) bound checks, \
                \(counts.invalidations) invalidations, \(counts.rowReports) rows reported, \(subscriptions)
                """
        }
        return """
            \(counts.rounds) rounds, \(counts.callsReturned) awaited calls (of \(counts.callsStarted) started), \
            \(counts.sends) sends, \(counts.closes) closes, \(counts.fetches) fetches, \(subscriptions), \
            lists checked with \(counts.prependedItemsChecked) prepended and \(counts.appendedItemsChecked) appended items
            """
    }
}
