import AsyncPaging

/// Every list a ``AsyncPaging/FeedController`` publishes, none skipped: for assertions about
/// what a feed ever showed, such as "this page was never applied".
///
/// ``AsyncPaging/FeedController/snapshots`` and ``AsyncPaging/FeedController/updates`` keep only
/// the newest list: a reader that is not scheduled between two publishes sees the second only.
/// A check that a page never showed, made over a ``StreamRecorder`` of snapshots, can
/// therefore pass without having looked at the version that showed it. The log is not a
/// stream: the controller hands it each list in the turn that publishes it, on its actor, so it
/// has every version in order, and it has it by the time the call or the event that followed
/// that turn reaches the test.
///
/// ```swift
/// let log = await PublishedListLog(feed)      // the current list, then every list after it
/// async let loadMore = feed.loadMore()        // its page arrives late, ignoring cancellation
/// await clock.waitForSleepers(1)
/// async let refresh = feed.refresh()          // cancels the load-more
/// ...
/// #expect(!log.everShowed { (15..<30).contains($0.id) })
/// #expect(log.versions == Array(1...feed.currentSnapshot.version))
/// ```
///
/// <doc:TestKitVocabulary> has the whole recipe.
///
/// The log keeps every list it is given (the lists share their storage with the controller's)
/// for as long as the controller lives: make one per test.
public final class PublishedListLog<Item: Sendable>: Sendable {
    private struct State {
        var lists: [FeedSnapshot<Item>] = []
        var versionWaits = PendingWaits<UInt64, Bool>()
    }

    private let state: Locked<State>

    /// Starts logging `feed`: the first list logged is the one it published last, then every
    /// list it publishes after it, in order.
    public init<Cursor>(_ feed: FeedController<Item, Cursor>) async {
        let state = Locked(State())
        self.state = state
        await feed._observeEveryPublishedList { snapshot in
            let waits = state.withLock { state in
                state.lists.append(snapshot)
                return state.versionWaits.takeSatisfied { $0 <= snapshot.version ? true : nil }
            }
            waits.forEach { $0.continuation.resume(returning: $0.value) }
        }
    }

    /// Every list logged, in version order.
    public var lists: [FeedSnapshot<Item>] { state.withLock { $0.lists } }

    /// The version of every list logged, in order: consecutive numbers, none skipped.
    public var versions: [UInt64] { state.withLock { $0.lists.map(\.version) } }

    /// Whether any list logged had an item that satisfies `predicate`.
    public func everShowed(where predicate: (Item) -> Bool) -> Bool {
        firstList(showing: predicate) != nil
    }

    /// The first list logged with an item that satisfies `predicate`, or `nil`: which version
    /// showed it, for a failure message.
    public func firstList(showing predicate: (Item) -> Bool) -> FeedSnapshot<Item>? {
        lists.first { $0.contains(where: predicate) }
    }

    /// The number of waits suspended now, for the test kit's own tests.
    package var pendingWaitCount: Int { state.withLock { $0.versionWaits.count } }

    /// Suspends until a list of version `version` or later has been logged, and returns `true`;
    /// returns `false` at once if the waiting task is cancelled first (also before the call), so
    /// a wrong expectation ends by the test's time limit instead of hanging the run.
    @discardableResult
    public func waitForVersion(_ version: UInt64) async -> Bool {
        await state.wait(
            in: \.versionWaits, for: version,
            satisfied: { $0.lists.last.map { $0.version >= version } == true ? true : nil },
            cancelled: { _ in false })
    }
}

extension PublishedListLog where Item: Identifiable {
    /// Whether any list logged had the item whose id is `id`.
    public func everShowed(id: Item.ID) -> Bool {
        everShowed { $0.id == id }
    }
}
