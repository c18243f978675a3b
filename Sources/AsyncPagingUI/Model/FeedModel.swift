import AsyncPaging
import Observation
import Synchronization

/// A feed for a screen: an observable mirror of a ``AsyncPaging/FeedController`` on the main actor, with
/// the pull gestures and the prefetch trigger wired to it.
///
/// SwiftUI views read its properties and are updated when they change; UIKit code reads them
/// in `withObservationTracking` (or binds ``AsyncPaging/FeedController/refreshCommands``). The view calls
/// the methods: ``rowAppeared(at:)`` (or ``visibleRowsChanged(_:)`` or ``scrolled(_:)``) to
/// load more near the end, ``refresh()``, ``loadMore()`` and ``retry()``, and the pull
/// methods when it has custom pull gestures.
///
/// ```swift
/// struct PostList: View {
///     let feed: FeedModel<Post, String>  // made once, outside the view: it starts loading
///
///     var body: some View {
///         List(feed.items) { post in
///             PostRow(post).onAppear { feed.rowAppeared(post) }
///         }
///         .refreshable { await feed.refresh() }
///     }
/// }
/// ```
///
/// The model subscribes to the controller's outputs when it is made and stops when it is
/// released. Its state always comes from the controller's newest ``AsyncPaging/FeedController/currentSnapshot``
/// and ``AsyncPaging/FeedController/currentStatus`` (the streams only say when to look), so it never goes
/// back to an older value, and the flags and the gestures always agree: a gesture is loading
/// exactly while the status shows its side loading, and stops when the side's load ends.
@Observable
@MainActor
public final class FeedModel<Item: Sendable, Cursor: Hashable & Sendable> {
    /// The controller the model mirrors and drives.
    @ObservationIgnored public nonisolated let controller: FeedController<Item, Cursor>

    /// The list, newest version.
    public private(set) var items: FeedSnapshot<Item>
    /// The feed's status, newest value.
    public private(set) var status: FeedStatus
    /// The pull-to-refresh header, or `nil` when the screen has none.
    public private(set) var header: PullGesture?
    /// The pull-to-load-more footer, or `nil` when the screen has none.
    public private(set) var footer: PullGesture?

    /// The requests this model sent that the controller has not answered yet. While there is
    /// one, the list's position loads nothing more: the status does not show a request until
    /// the controller has taken it.
    public private(set) var requestsInFlight = 0

    /// Decides when a row, the visible rows or the geometry load more.
    @ObservationIgnored public let prefetch: PrefetchTrigger
    /// The tasks that follow the controller's outputs; cancelled on release.
    @ObservationIgnored private let subscriptions = Mutex<[Task<Void, Never>]>([])

    /// Creates a model of `controller` and starts following it.
    /// - Parameters:
    ///   - controller: The feed to mirror and drive.
    ///   - prefetch: When rows and geometry load more (by default: the last row appears, or the
    ///     list reaches its bottom).
    ///   - header: The pull-to-refresh gesture, or `nil` for none.
    ///   - footer: The pull-to-load-more gesture, or `nil` for none.
    public init(
        controller: FeedController<Item, Cursor>,
        prefetch: PrefetchTrigger = PrefetchTrigger(),
        header: PullGesture? = .header(),
        footer: PullGesture? = .footer()
    ) {
        precondition(header?.side ?? .refresh == .refresh, "the header gesture must refresh")
        precondition(footer?.side ?? .loadMore == .loadMore, "the footer gesture must load more")
        self.controller = controller
        self.prefetch = prefetch
        self.header = header
        self.footer = footer
        items = controller.currentSnapshot
        status = controller.currentStatus
        // Subscribe now, so nothing that happens from here on is missed.
        let statuses = controller.statuses
        let snapshots = controller.snapshots
        let tasks = [
            Task { [weak self] in
                for await _ in statuses {
                    guard let self else { return }
                    self.sync()
                }
            },
            Task { [weak self] in
                for await _ in snapshots {
                    guard let self else { return }
                    self.sync()
                }
            },
        ]
        subscriptions.withLock { $0 = tasks }
        sync()
    }

    deinit {
        subscriptions.withLock { tasks in tasks.forEach { $0.cancel() } }
    }

    // MARK: Flags

    /// Whether a refresh is in flight (or waiting to retry).
    public var isRefreshing: Bool { status == .refreshing }
    /// Whether a load-more is in flight (or waiting to retry).
    public var isLoadingMore: Bool { status == .loadingMore }
    /// Whether the last page has been loaded.
    public var isEndOfData: Bool { status == .endOfData }
    /// The failure of the last load, until a retry or a new request.
    public var failure: FeedFailure? {
        if case .failed(let failure) = status { failure } else { nil }
    }

    // MARK: Loading more from the list's position

    /// Reports that row `index` of ``items`` is about to appear; loads more when it is within
    /// the prefetch distance of the end. Reports while a load is in flight, at the end of the
    /// data or after a failure start nothing, so a list bouncing on its last row loads once.
    @discardableResult
    public func rowAppeared(at index: Int) -> PrefetchTrigger.Decision {
        loadMore(if: prefetch.decision(
            forRow: index, itemCount: controller.currentSnapshot.count,
            status: controller.currentStatus, requestPending: requestsInFlight > 0))
    }

    /// Reports the rows on screen; loads more when the last one is near the end.
    @discardableResult
    public func visibleRowsChanged(_ rows: Range<Int>) -> PrefetchTrigger.Decision {
        loadMore(if: prefetch.decision(
            forVisibleRows: rows, itemCount: controller.currentSnapshot.count,
            status: controller.currentStatus, requestPending: requestsInFlight > 0))
    }

    /// Reports the scroll geometry: updates the pull of both gestures from the overscroll at
    /// each end, and loads more when the list is within the trigger's bottom distance.
    @discardableResult
    public func scrolled(_ geometry: FeedScrollGeometry) -> PrefetchTrigger.Decision {
        updateGesture(.refresh) { $0.pull(by: geometry.overscrollAtTop) }
        updateGesture(.loadMore) { $0.pull(by: geometry.overscrollAtBottom) }
        return loadMore(if: prefetch.decision(
            for: geometry, status: controller.currentStatus, requestPending: requestsInFlight > 0))
    }

    private func loadMore(if decision: PrefetchTrigger.Decision) -> PrefetchTrigger.Decision {
        if decision == .loadMore { launch(.loadMore) }
        return decision
    }

    // MARK: Pull gestures

    /// Reports how far the header is pulled down, in points.
    public func pullHeader(by distance: Double) {
        updateGesture(.refresh) { $0.pull(by: distance) }
    }

    /// Reports how far the footer is pulled up past the bottom, in points.
    public func pullFooter(by distance: Double) {
        updateGesture(.loadMore) { $0.pull(by: distance) }
    }

    /// Reports that the finger lifted: a triggered header refreshes, a triggered footer loads
    /// more.
    public func releasePull() {
        for side in FeedSide.allCases {
            var released = false
            updateGesture(side) { released = $0.release() != nil }
            guard released else { continue }
            launch(side == .refresh ? .refresh : .loadMore) { [weak self] _ in
                self?.updateGesture(side) { $0.requestAnswered() }
            }
        }
    }

    /// Changes the gesture of `side`, if the model has one; assigns only a changed value, so
    /// that observers are told only of real changes.
    private func updateGesture(_ side: FeedSide, _ change: (inout PullGesture) -> Void) {
        let current = side == .refresh ? header : footer
        guard var gesture = current else { return }
        change(&gesture)
        guard gesture != current else { return }
        if side == .refresh { header = gesture } else { footer = gesture }
    }

    // MARK: Requests

    /// Refreshes, and returns once the refresh has ended; ``items`` then holds its page.
    /// Fit for SwiftUI's `refreshable`.
    @discardableResult
    public func refresh() async -> LoadResult { await perform(.refresh) }

    /// Loads the next page, and returns once the load has ended; ``items`` then holds it.
    @discardableResult
    public func loadMore() async -> LoadResult { await perform(.loadMore) }

    /// Runs the failed load again, and returns once it has ended.
    @discardableResult
    public func retry() async -> LoadResult { await perform(.retry) }

    private enum Operation { case refresh, loadMore, retry }

    private func perform(_ operation: Operation) async -> LoadResult {
        requestsInFlight += 1
        return await complete(operation)
    }

    /// Sends a request from synchronous UI code. It counts as in flight at once, before the
    /// task that carries it runs, so a report that follows in the same turn loads nothing more.
    private func launch(_ operation: Operation, then answered: @escaping (LoadResult) -> Void = { _ in }) {
        requestsInFlight += 1
        Task { answered(await complete(operation)) }
    }

    /// Carries out a request already counted in ``requestsInFlight``.
    private func complete(_ operation: Operation) async -> LoadResult {
        let result = switch operation {
        case .refresh: await controller.refresh()
        case .loadMore: await controller.loadMore()
        case .retry: await controller.retry()
        }
        requestsInFlight -= 1
        sync()
        return result
    }

    // MARK: Following the controller

    /// Copies the controller's newest list and status, and the availability of the gestures.
    private func sync() {
        let snapshot = controller.currentSnapshot
        if snapshot.version != items.version { items = snapshot }
        let status = controller.currentStatus
        if status != self.status { self.status = status }
        let configuration = controller.configuration
        let hasLoadedFirstPage = snapshot.generation > 0
        for side in FeedSide.allCases {
            let available = PullGesture.isAvailable(
                side, status: status, hasLoadedFirstPage: hasLoadedFirstPage, configuration: configuration)
            let loading = status == (side == .refresh ? .refreshing : .loadingMore)
            updateGesture(side) {
                $0.setAvailable(available)
                $0.setLoading(loading)
            }
        }
    }
}

extension FeedModel where Item: Identifiable {
    /// Reports that `item` is about to appear; see ``rowAppeared(at:)``. Only the last
    /// `prefetchDistance + 1` items can load more, so only they are searched: an item further
    /// up costs that many comparisons, not a scan of the list.
    @discardableResult
    public func rowAppeared(_ item: Item) -> PrefetchTrigger.Decision {
        let candidates = items.indices.suffix(min(prefetch.prefetchDistance, items.count - 1) + 1)
        guard let index = candidates.last(where: { items[$0].id == item.id }) else { return .skip(.notNearEnd) }
        return rowAppeared(at: index)
    }
}
