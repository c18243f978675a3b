import AsyncPaging
import AsyncPagingUI
import Testing

/// Issue 11: no number given to the UI kit's value types traps, hangs, or yields a value out
/// of its documented range (a progress outside 0...1, a NaN or infinite distance).
@Suite("Fuzz: UI value types never trap", .serialized) // one fuzzing child at a time: each blocks a pool thread while it waits
struct UIValueFuzzTests {
    @Test("PullGesture: any threshold, pull and sequence of inputs")
    func pullGesture() async {
        FuzzHarness.announce(PullGestureFuzz.self)
        let result = await #expect(processExitsWith: .success) { FuzzHarness.runChild(PullGestureFuzz.self) }
        FuzzHarness.report(PullGestureFuzz.self, result)
    }

    @Test("FeedScrollGeometry: any offsets, heights, insets and distances")
    func scrollGeometry() async {
        FuzzHarness.announce(ScrollGeometryFuzz.self)
        let result = await #expect(processExitsWith: .success) { FuzzHarness.runChild(ScrollGeometryFuzz.self) }
        FuzzHarness.report(ScrollGeometryFuzz.self, result)
    }

    @Test("PrefetchTrigger: any distances, rows, item counts and statuses")
    func prefetchTrigger() async {
        FuzzHarness.announce(PrefetchTriggerFuzz.self)
        let result = await #expect(processExitsWith: .success) { FuzzHarness.runChild(PrefetchTriggerFuzz.self) }
        FuzzHarness.report(PrefetchTriggerFuzz.self, result)
    }
}

enum PullGestureFuzz: FuzzCase {
    enum Step: CustomStringConvertible {
        case pull(Double), release, handle(FeedEvent), setLoading(Bool), setAvailable(Bool), requestAnswered

        var description: String {
            switch self {
            case .pull(let distance): "pull(by: \(distance))"
            case .release: "release()"
            case .handle(let event): "handle(\(event))"
            case .setLoading(let loading): "setLoading(\(loading))"
            case .setAvailable(let available): "setAvailable(\(available))"
            case .requestAnswered: "requestAnswered()"
            }
        }
    }

    struct Input: CustomStringConvertible {
        var side: FeedSide
        var threshold: Double
        var steps: [Step]
        var description: String { "PullGesture(side: .\(side), threshold: \(threshold)), then \(steps)" }
    }

    static let name = "PullGesture"

    static func input(_ random: inout FuzzRandom) -> Input {
        let side: FeedSide = random.bool() ? .refresh : .loadMore
        let steps = (0..<Int(random.next() % 12)).map { _ -> Step in
            switch random.next() % 6 {
            case 0, 1: .pull(random.double())
            case 2: .release
            case 3: .handle(random.bool() ? .began(side) : .ended(side, .completed))
            case 4: random.bool() ? .setLoading(random.bool()) : .requestAnswered
            default: .setAvailable(random.next() % 4 != 0)
            }
        }
        return Input(side: side, threshold: random.double(), steps: steps)
    }

    static func violation(_ input: Input) -> String? {
        var gesture = PullGesture(side: input.side, threshold: input.threshold)
        guard !gesture.threshold.isNaN, gesture.threshold >= 0 else { return "threshold \(gesture.threshold)" }
        for (index, step) in input.steps.enumerated() {
            switch step {
            case .pull(let distance): gesture.pull(by: distance)
            case .release: _ = gesture.release()
            case .handle(let event): gesture.handle(event)
            case .setLoading(let loading): gesture.setLoading(loading)
            case .setAvailable(let available): gesture.setAvailable(available)
            case .requestAnswered: gesture.requestAnswered()
            }
            guard (0...1).contains(gesture.progress) else { return "after step \(index): progress \(gesture.progress)" }
            if gesture.state == .triggered && gesture.progress < 1 {
                return "after step \(index): triggered with progress \(gesture.progress)"
            }
        }
        return nil
    }
}

enum ScrollGeometryFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var geometry: FeedScrollGeometry
        var distance: Double
        var description: String { "\(geometry), isAtBottom(within: \(distance))" }
    }

    static let name = "FeedScrollGeometry"

    static func input(_ random: inout FuzzRandom) -> Input {
        Input(
            geometry: FeedScrollGeometry(
                contentOffset: random.double(), contentHeight: random.double(), viewportHeight: random.double(),
                topInset: random.double(), bottomInset: random.double()),
            distance: random.double())
    }

    static func violation(_ input: Input) -> String? {
        let geometry = input.geometry
        _ = geometry.isAtBottom(within: input.distance)
        if let distance = geometry.distanceToBottom {
            guard geometry.isMeasurable else { return "distanceToBottom \(distance) for a geometry that is not measurable" }
            guard distance.isFinite else { return "distanceToBottom \(distance)" }
        }
        for (name, overscroll) in [("overscrollAtTop", geometry.overscrollAtTop), ("overscrollAtBottom", geometry.overscrollAtBottom)] {
            guard overscroll.isFinite, overscroll >= 0 else { return "\(name) \(overscroll)" }
        }
        return nil
    }
}

enum PrefetchTriggerFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var prefetchDistance: Int
        var bottomDistance: Double
        var row: Int
        var rows: Range<Int>
        var itemCount: Int
        var geometry: FeedScrollGeometry
        var status: FeedStatus
        var requestPending: Bool
        var topDistance: Double
        var feed: PrefetchTrigger.FeedState
        var description: String {
            "PrefetchTrigger(prefetchDistance: \(prefetchDistance), bottomDistance: \(bottomDistance), topDistance: \(topDistance)), row \(row), rows \(rows), itemCount \(itemCount), \(geometry), status \(status), requestPending \(requestPending), \(feed)"
        }
    }

    static let name = "PrefetchTrigger"

    static func input(_ random: inout FuzzRandom) -> Input {
        let (a, b) = (random.integer(), random.integer())
        let statuses: [FeedStatus] = [.idle, .refreshing, .loadingMore, .endOfData, .closed]
        return Input(
            prefetchDistance: random.integer(), bottomDistance: random.double(), row: random.integer(),
            rows: min(a, b)..<max(a, b), itemCount: random.integer(),
            geometry: FeedScrollGeometry(
                contentOffset: random.double(), contentHeight: random.double(), viewportHeight: random.double()),
            status: statuses[Int(random.next() % UInt64(statuses.count))], requestPending: random.bool(),
            topDistance: random.double(), feed: feedState(&random))
    }

    /// Any per-side states, policy and pending requests.
    static func feedState(_ random: inout FuzzRandom) -> PrefetchTrigger.FeedState {
        let failure = FeedFailure(error: Offline(), side: .loadMore, attempt: 1)
        let states: [FeedLoadState] = [.idle, .loading, .failed(failure), .reachedEnd]
        func state(_ random: inout FuzzRandom) -> FeedLoadState { states[Int(random.next() % UInt64(states.count))] }
        return PrefetchTrigger.FeedState(
            loadStates: FeedLoadStates(refresh: state(&random), loadPrevious: state(&random), loadMore: state(&random)),
            isClosed: random.bool(), bothEnds: random.bool() ? .runBoth : .cancelOther,
            pendingSides: Set(FeedSide.allCases.filter { _ in random.bool() }))
    }

    static func violation(_ input: Input) -> String? {
        let trigger = PrefetchTrigger(prefetchDistance: input.prefetchDistance, bottomDistance: input.bottomDistance)
        guard trigger.prefetchDistance >= 0 else { return "prefetchDistance \(trigger.prefetchDistance)" }
        guard !trigger.bottomDistance.isNaN, trigger.bottomDistance >= 0 else { return "bottomDistance \(trigger.bottomDistance)" }
        let decisions = [
            trigger.decision(forRow: input.row, itemCount: input.itemCount, status: input.status, requestPending: input.requestPending),
            trigger.decision(forVisibleRows: input.rows, itemCount: input.itemCount, status: input.status, requestPending: input.requestPending),
            trigger.decision(for: input.geometry, status: input.status, requestPending: input.requestPending),
        ]
        for decision in decisions where decision == .loadMore {
            guard input.status == .idle, !input.requestPending else { return "loadMore while \(input.status), pending \(input.requestPending)" }
        }
        // Both ends: an end loads only when it is idle, nothing else blocks it, and (under
        // cancelOther) the two never load at once.
        let both = PrefetchTrigger(
            prefetchDistance: input.prefetchDistance, bottomDistance: input.bottomDistance, topDistance: input.topDistance)
        guard !both.topDistance.isNaN, both.topDistance >= 0 else { return "topDistance \(both.topDistance)" }
        let feed = input.feed
        let pairs = [
            both.decisions(forRow: input.row, itemCount: input.itemCount, in: feed),
            both.decisions(forVisibleRows: input.rows, itemCount: input.itemCount, in: feed),
            both.decisions(for: input.geometry, in: feed),
        ]
        for pair in pairs {
            for edge in PrefetchTrigger.Edge.allCases where pair[edge] == edge.load {
                guard feed.loadStates[edge.side] == .idle, !feed.loadStates.refresh.isLoading, !feed.isClosed,
                      !feed.pendingSides.contains(edge.side), !feed.pendingSides.contains(.refresh)
                else { return "\(edge) loads in \(feed)" }
            }
            if feed.bothEnds == .cancelOther, pair.sides.count > 1 { return "both ends load under cancelOther: \(pair)" }
            guard pair.start != .loadMore, pair.end != .loadPrevious else { return "a load at the wrong end: \(pair)" }
        }
        return nil
    }
}
