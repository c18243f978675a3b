import AsyncPaging
import AsyncPagingTesting

/// A subscriber a randomized run attached to the three outputs.
struct ModelSubscriber {
    let events: StreamRecorder<FeedEvent>
    let snapshots: StreamRecorder<FeedSnapshot<FeedRow>>
    let statuses: StreamRecorder<FeedStatus>
    /// The `began` events a subscriber joining now is told first.
    let replay: [FeedEvent]
    /// Where the model's event log stood when it joined.
    let joinedAtEvent: Int
    let joinedAtVersion: UInt64
    let joinedAfterClose: Bool

    init(_ feed: RowFeed, model: ReferenceModel) {
        events = StreamRecorder(feed.events)
        snapshots = StreamRecorder(feed.snapshots)
        statuses = StreamRecorder(feed.statuses)
        replay = model.isClosed ? [] : model.loadingSides.map(FeedEvent.began)
        joinedAtEvent = model.events.count
        joinedAtVersion = model.version
        joinedAfterClose = model.isClosed
    }

    /// Every event this subscriber must receive, given the model's whole event log.
    func expectedEvents(_ log: [FeedEvent]) -> [FeedEvent] {
        joinedAfterClose ? [] : replay + log[joinedAtEvent...]
    }

    func cancel() async {
        events.cancel()
        snapshots.cancel()
        statuses.cancel()
        await events.waitForFinish()
        await snapshots.waitForFinish()
        await statuses.waitForFinish()
    }
}
