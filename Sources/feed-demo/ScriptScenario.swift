import AsyncPaging
import AsyncPagingUI

/// The script mode: a fixed scenario against the simulated API on the real clock, printed as a
/// transcript of calls, events and snapshots, with a check after every step.
///
/// Overlaps are made deterministic without racing the clock: the load that is to be cancelled
/// is given a request that hangs (``SimulatedFeedAPI/Fault/stall``), and the other side starts
/// only once the hanging load's `began` event has been read.
struct ScriptScenario {
    typealias Feed = FeedController<FeedItem, FeedCursor>
    typealias Events = AsyncStream<FeedEvent>.Iterator

    let options: ResolvedOptions

    /// Runs the scenario; `true` when every check held.
    func run() async -> Bool {
        let settings = options.settings
        let pageSize = options.pageSize
        let api = SimulatedFeedAPI(settings: settings)
        let configuration: FeedConfiguration
        do {
            // The first page is loaded by an explicit refresh, so that its events are read
            // from the start even with --latency 0.
            configuration = try FeedConfiguration(pageSize: pageSize, loadsInitialPage: false)
        } catch {
            print("feed-demo: invalid configuration: \(error)")
            return false
        }
        let feed = Feed(source: api, clock: ContinuousClock(), configuration: configuration)
        var events = feed.events.makeAsyncIterator()
        var transcript = Transcript()

        print("feed-demo script: seed \(settings.seed), page size \(pageSize), \(settings.totalItems) items, "
            + "latency about \(settings.latency.shortText), on the real clock")
        print("engine: refresh cancels a load-more; load-more cancels a refresh; a load-more joins a load-more")

        // 1. The first page.
        transcript.step("open the feed: the first page (\(pageSize) items)")
        let first = await feed.refresh()
        let firstEvents = await read(&events, until: { $0 == .ended(.refresh, .completed) }, into: transcript)
        transcript.call("refresh()", first)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.check(
            firstEvents == [.began(.refresh), .ended(.refresh, .completed)],
            "events: began(refresh), ended(refresh, completed)", "\(firstEvents)")
        transcript.check(
            first.outcome == .completed(LoadSummary(itemsApplied: pageSize)),
            "refresh() completed with \(pageSize) items", "\(first.outcome)")
        transcript.check(
            ids(feed.currentSnapshot) == ids(api.makePage(at: FeedCursor(edition: 1, offset: 0), size: pageSize).items),
            "the list is the first page of edition 1, newest first", "\(ids(feed.currentSnapshot))")
        transcript.check(feed.currentStatus == .idle, "status is idle", "\(feed.currentStatus)")

        // 2. Load more.
        transcript.step("load more: the footer appends the next page")
        let generationBefore = feed.currentSnapshot.generation
        let more = await feed.loadMore()
        let moreEvents = await read(&events, until: { $0 == .ended(.loadMore, .completed) }, into: transcript)
        transcript.call("loadMore()", more)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.check(
            moreEvents == [.began(.loadMore), .ended(.loadMore, .completed)],
            "events: began(loadMore), ended(loadMore, completed)", "\(moreEvents)")
        transcript.check(
            feed.currentSnapshot.change == .appended(pageSize..<(2 * pageSize)),
            "items \(pageSize)..<\(2 * pageSize) were appended", "\(feed.currentSnapshot.change)")
        transcript.check(
            feed.currentSnapshot.generation == generationBefore && isContiguous(feed.currentSnapshot),
            "same generation; posts continue without gap or duplicate", "\(ids(feed.currentSnapshot))")

        // 3. Refresh during a load-more.
        transcript.step("refresh during a load-more: the header cancels the footer")
        api.inject(.stall, on: .loadMore)
        transcript.note("(the next load-more request will hang until it is cancelled)")
        let hangingLoadMore = Task { await feed.loadMore() }
        var overlapEvents = await read(&events, until: { $0 == .began(.loadMore) }, into: transcript)
        transcript.note("load-more in flight; now refresh()")
        let refreshed = await feed.refresh()
        overlapEvents += await read(&events, until: { $0.side == .refresh && $0 != .began(.refresh) }, into: transcript)
        let cancelledLoadMore = await hangingLoadMore.value
        transcript.call("loadMore()", cancelledLoadMore)
        transcript.call("refresh()", refreshed)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.check(
            overlapEvents == [
                .began(.loadMore), .ended(.loadMore, .cancelled(.preemptedByRefresh)),
                .began(.refresh), .ended(.refresh, .completed),
            ],
            "events: load-more began, ended cancelled by the refresh; refresh began and completed",
            "\(overlapEvents)")
        transcript.check(
            cancelledLoadMore.outcome == .cancelled(.preemptedByRefresh),
            "the load-more's caller was told it was cancelled by a refresh", "\(cancelledLoadMore.outcome)")
        let edition2 = api.makePage(at: FeedCursor(edition: 2, offset: 0), size: pageSize).items
        transcript.check(
            feed.currentSnapshot.change == .replaced && ids(feed.currentSnapshot) == ids(edition2),
            "the list was replaced by edition 2's first page, nothing of the cancelled load-more",
            "\(feed.currentSnapshot.change) \(ids(feed.currentSnapshot))")
        transcript.check(
            feed.currentSnapshot.first?.id == api.newestPost(inEdition: 2),
            "\(settings.newPostsPerRefresh) newer posts are on top (#\(api.newestPost(inEdition: 2)) first)",
            "\(feed.currentSnapshot.first.map { "#\($0.id)" } ?? "empty")")

        // 4. Load-more during a refresh.
        transcript.step("load more during a refresh: the footer cancels the header")
        api.inject(.stall, on: .refresh)
        transcript.note("(the next refresh request will hang until it is cancelled)")
        let generationBeforeRefresh = feed.currentSnapshot.generation
        let hangingRefresh = Task { await feed.refresh() }
        var reverseEvents = await read(&events, until: { $0 == .began(.refresh) }, into: transcript)
        transcript.note("refresh in flight; now loadMore()")
        let appended = await feed.loadMore()
        reverseEvents += await read(
            &events, until: { $0.side == .loadMore && $0 != .began(.loadMore) }, into: transcript)
        let cancelledRefresh = await hangingRefresh.value
        transcript.call("refresh()", cancelledRefresh)
        transcript.call("loadMore()", appended)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.check(
            reverseEvents == [
                .began(.refresh), .ended(.refresh, .cancelled(.preemptedByLoadMore)),
                .began(.loadMore), .ended(.loadMore, .completed),
            ],
            "events: refresh began, ended cancelled by the load-more; load-more began and completed",
            "\(reverseEvents)")
        transcript.check(
            cancelledRefresh.outcome == .cancelled(.preemptedByLoadMore),
            "the refresh's caller was told it was cancelled by a load-more", "\(cancelledRefresh.outcome)")
        transcript.check(
            feed.currentSnapshot.generation == generationBeforeRefresh
                && feed.currentSnapshot.change == .appended(pageSize..<(2 * pageSize))
                && isContiguous(feed.currentSnapshot),
            "the refresh's data never landed: the next page of edition 2 was appended",
            "\(feed.currentSnapshot) \(ids(feed.currentSnapshot))")

        // 5. A failure, then a retry.
        transcript.step("a failure, then a retry")
        api.inject(.fail, on: .loadMore)
        transcript.note("(the next load-more request will fail)")
        let before = feed.currentSnapshot
        let failed = await feed.loadMore()
        let failEvents = await read(&events, until: { $0.side == .loadMore && $0 != .began(.loadMore) }, into: transcript)
        transcript.call("loadMore()", failed)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        let expectedFailure = FeedFailure(error: SimulatedAPIError.injected, side: .loadMore, attempt: 1)
        transcript.check(
            failEvents == [.began(.loadMore), .ended(.loadMore, .failed(expectedFailure))],
            "events: began(loadMore), ended(loadMore, failed)", "\(failEvents)")
        transcript.check(
            feed.currentStatus == .failed(expectedFailure),
            "status shows the failure, so the UI can offer a retry", "\(feed.currentStatus)")
        transcript.check(
            feed.currentSnapshot.version == before.version,
            "the list is unchanged", "\(feed.currentSnapshot)")
        let retried = await feed.retry()
        let retryEvents = await read(&events, until: { $0.side == .loadMore && $0 != .began(.loadMore) }, into: transcript)
        transcript.call("retry()", retried)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.check(
            retryEvents == [.began(.loadMore), .ended(.loadMore, .completed)] && retried.side == .loadMore,
            "retry() ran the load-more again and it completed", "\(retryEvents) \(retried)")
        transcript.check(
            feed.currentSnapshot.count == 3 * pageSize && isContiguous(feed.currentSnapshot),
            "\(3 * pageSize) items, contiguous", "\(feed.currentSnapshot.count)")

        // 6. Load more until the end of the data.
        transcript.step("load more until the end of the data")
        var rounds = 0
        var last = retried
        while rounds <= settings.totalItems / pageSize + 1 {
            rounds += 1
            last = await feed.loadMore()
            _ = await read(&events, until: { $0.side == .loadMore && $0 != .began(.loadMore) }, into: transcript)
            transcript.call("loadMore()", last)
            guard case .completed(let summary) = last.outcome, !summary.reachedEnd else { break }
        }
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        let newest = api.newestPost(inEdition: 2)
        transcript.check(
            { if case .completed(let summary) = last.outcome { summary.reachedEnd } else { false } }(),
            "the last page said there is no more data", "\(last.outcome)")
        transcript.check(
            feed.currentStatus == .endOfData, "status is endOfData (\"no more data\" footer)",
            "\(feed.currentStatus)")
        transcript.check(
            ids(feed.currentSnapshot) == Array(((newest - settings.totalItems + 1)...newest).reversed()),
            "all \(settings.totalItems) posts of edition 2, #\(newest) down to #\(newest - settings.totalItems + 1), once each",
            "\(feed.currentSnapshot.count) items")
        let requestsBefore = api.stats.requests
        let atEnd = await feed.loadMore()
        transcript.call("loadMore()", atEnd)
        transcript.check(
            atEnd.outcome == .endOfData && api.stats.requests == requestsBefore,
            "a load-more at the end answers endOfData without a request", "\(atEnd.outcome)")

        // 7. The UI kit, as a screen uses it: the prefetch trigger and a pull on the header.
        transcript.step("the UI kit (AsyncPagingUI): prefetch decisions and a pull to refresh")
        let trigger = PrefetchTrigger(prefetchDistance: options.prefetchDistance)
        let count = feed.currentSnapshot.count
        let atTheEnd = trigger.decision(
            forVisibleRows: max(count - 20, 0)..<count, itemCount: count, status: feed.currentStatus, requestPending: false)
        transcript.note("PrefetchTrigger, last rows on screen at the end of the data: \(atTheEnd)")
        transcript.check(atTheEnd == .skip(.endOfData), "the last rows load nothing at the end of the data", "\(atTheEnd)")
        var header = PullGesture.header(threshold: 60)
        header.pull(by: 25)
        transcript.note("PullGesture header pulled 25 of 60 points: \(header.state), progress \(Int(header.progress * 100))%")
        header.pull(by: 75)
        transcript.note("pulled 75 points: \(header.state)")
        let pulled = header.release()
        transcript.note("released: sends \(pulled.map { "\($0)" } ?? "nothing"), header \(header.state)")
        transcript.check(
            pulled == .refresh && header.state == .loading,
            "a header pulled past its threshold sends a refresh when released, and shows loading", "\(String(describing: pulled)) \(header.state)")
        let pulledRefresh = await feed.refresh()
        let pullEvents = await read(&events, until: { $0.side == .refresh && $0 != .began(.refresh) }, into: transcript)
        pullEvents.forEach { header.handle($0) }
        transcript.call("refresh()", pulledRefresh)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.check(
            pulledRefresh.outcome == .completed(LoadSummary(itemsApplied: pageSize)) && header.state == .stopped,
            "the refresh replaced the list with a first page, and its end event stopped the header",
            "\(pulledRefresh.outcome) \(header.state)")
        let refreshedCount = feed.currentSnapshot.count
        let scrolledDown = trigger.decision(
            forVisibleRows: max(refreshedCount - 20, 0)..<refreshedCount, itemCount: refreshedCount,
            status: feed.currentStatus, requestPending: false)
        transcript.note("PrefetchTrigger, the last rows of the refreshed list on screen: \(scrolledDown)")
        let filled = await feed.loadMore()
        _ = await read(&events, until: { $0.side == .loadMore && $0 != .began(.loadMore) }, into: transcript)
        transcript.call("loadMore()", filled)
        transcript.check(
            scrolledDown == .loadMore && filled.outcome == .completed(LoadSummary(itemsApplied: pageSize)),
            "scrolled to the end of a feed with more, the trigger loads the next page", "\(scrolledDown) \(filled.outcome)")

        // 8. Open in the middle, then load both ways.
        await openInTheMiddle(feed, api: api, events: &events, transcript: &transcript)

        // 9. Close.
        transcript.step("close")
        await feed.close()
        let closeEvents = await readToEnd(&events, into: transcript)
        transcript.check(closeEvents.isEmpty, "no load was in flight; the event stream finished", "\(closeEvents)")
        transcript.check(feed.currentStatus == .closed, "status is closed", "\(feed.currentStatus)")
        let stats = await settledStats(of: api)
        transcript.note("api: \(stats)")
        transcript.check(
            stats.cancelled == 2 && stats.failed == 1 && stats.inFlight == 0,
            "the API saw both hanging requests cancelled and one failure", "\(stats)")

        print("")
        if transcript.failures.isEmpty {
            print("PASS: all \(transcript.checkCount) checks held")
        } else {
            print("FAIL: \(transcript.failures.count) of \(transcript.checkCount) checks did not hold:")
            for failure in transcript.failures { print("  - \(failure)") }
        }
        return transcript.failures.isEmpty
    }

    // MARK: Two ends

    /// Opens the feed at a post in the middle (`refresh(from:)`, a deep link), loads the newer
    /// page above and the older page below, then newer pages up to the start of the data; the
    /// UI kit's two-ended trigger reads the per-side states.
    private func openInTheMiddle(
        _ feed: Feed, api: SimulatedFeedAPI, events: inout Events, transcript: inout Transcript
    ) async {
        let settings = options.settings
        let pageSize = options.pageSize
        let openAt = options.openAt ?? settings.totalItems / 2
        let edition = api.currentEdition
        let cursor = FeedCursor(edition: edition, offset: openAt)
        transcript.step("open in the middle: refresh(from: \(cursor)) at post \(openAt), then newer above and older below")
        let expected = api.makePage(at: cursor, size: pageSize)
        let opened = await feed.refresh(from: cursor)
        _ = await read(&events, until: { $0.side == .refresh && $0 != .began(.refresh) }, into: transcript)
        transcript.call("refresh(from: \(cursor))", opened)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.note("load states: \(feed.currentLoadStates)")
        transcript.check(
            opened.outcome == .completed(LoadSummary(itemsApplied: expected.items.count, reachedEnd: expected.next == nil))
                && ids(feed.currentSnapshot) == ids(expected.items) && feed.currentSnapshot.change == .replaced,
            "the list is the page at post \(openAt) alone", "\(opened.outcome) \(ids(feed.currentSnapshot))")
        transcript.check(
            feed.currentLoadStates.loadPrevious == .idle,
            "the top can load (the page has a previous cursor)", "\(feed.currentLoadStates)")

        // The newer page above: a prepend that moves every row down.
        let above = await feed.loadPrevious()
        let aboveEvents = await read(
            &events, until: { $0.side == .loadPrevious && $0 != .began(.loadPrevious) }, into: transcript)
        transcript.call("loadPrevious()", above)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        let abovePage = expected.previous.map { api.makePage(at: $0, size: pageSize) }
        let aboveCount = abovePage?.items.count ?? 0
        transcript.check(
            aboveEvents.first == .began(.loadPrevious) && aboveEvents.count == 2,
            "events: began(loadPrevious), then its end", "\(aboveEvents)")
        transcript.check(
            feed.currentSnapshot.change == .prepended(0..<aboveCount) && feed.currentSnapshot.change.prependedCount == aboveCount
                && isContiguous(feed.currentSnapshot),
            "\(aboveCount) newer posts were prepended (older indices move down by \(aboveCount)), no gap",
            "\(feed.currentSnapshot.change) \(ids(feed.currentSnapshot))")

        // The older page below (none when the page opened at was the last one).
        let countBefore = feed.currentSnapshot.count
        let below = await feed.loadMore()
        if below.outcome != .endOfData {
            _ = await read(&events, until: { $0.side == .loadMore && $0 != .began(.loadMore) }, into: transcript)
        }
        transcript.call("loadMore()", below)
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        if expected.next == nil {
            transcript.check(
                below.outcome == .endOfData && feed.currentSnapshot.count == countBefore,
                "the page opened at was the last: the bottom answers endOfData", "\(below.outcome)")
        } else {
            transcript.check(
                feed.currentSnapshot.change == .appended(countBefore..<feed.currentSnapshot.count)
                    && feed.currentSnapshot.count > countBefore && isContiguous(feed.currentSnapshot),
                "older posts were appended below, no gap", "\(feed.currentSnapshot.change) \(ids(feed.currentSnapshot))")
        }

        // Newer pages up to the start of the data.
        var rounds = 0
        var last = above
        while case .completed(let summary) = last.outcome, !summary.reachedEnd, rounds <= settings.totalItems / pageSize + 1 {
            rounds += 1
            last = await feed.loadPrevious()
            _ = await read(&events, until: { $0.side == .loadPrevious && $0 != .began(.loadPrevious) }, into: transcript)
            transcript.call("loadPrevious()", last)
        }
        transcript.snapshot(feed.currentSnapshot, status: feed.currentStatus)
        transcript.note("load states: \(feed.currentLoadStates)")
        let newest = api.newestPost(inEdition: edition)
        transcript.check(
            feed.currentLoadStates.loadPrevious == .reachedEnd && feed.currentSnapshot.first?.id == newest
                && isContiguous(feed.currentSnapshot),
            "the top reached the start of the data: #\(newest) first, no gap",
            "\(feed.currentLoadStates) \(feed.currentSnapshot.first.map { "#\($0.id)" } ?? "empty")")
        let requestsBefore = api.stats.requests
        let atStart = await feed.loadPrevious()
        transcript.call("loadPrevious()", atStart)
        transcript.check(
            atStart.outcome == .endOfData && api.stats.requests == requestsBefore,
            "a load-previous at the start answers endOfData without a request", "\(atStart.outcome)")

        let trigger = PrefetchTrigger(prefetchDistance: options.prefetchDistance)
        let count = feed.currentSnapshot.count
        let state = PrefetchTrigger.FeedState(loadStates: feed.currentLoadStates)
        let top = trigger.decisions(forVisibleRows: 0..<min(20, count), itemCount: count, in: state)
        let bottom = trigger.decisions(forVisibleRows: max(count - 20, 0)..<count, itemCount: count, in: state)
        transcript.note("PrefetchTrigger at both ends, first rows on screen: \(top); last rows: \(bottom)")
        let bottomExpected: PrefetchTrigger.Decision = feed.currentLoadStates.loadMore == .reachedEnd ? .skip(.endOfData) : .loadMore
        transcript.check(
            top.start == .skip(.endOfData) && bottom.end == bottomExpected,
            "the top loads nothing at the start of the data; the bottom decides from its own side (\(bottomExpected))",
            "\(top) \(bottom)")
    }

    // MARK: Helpers

    /// Reads and prints events up to and including the first that matches `last`.
    private func read(
        _ events: inout Events, until last: (FeedEvent) -> Bool, into transcript: Transcript
    ) async -> [FeedEvent] {
        var seen: [FeedEvent] = []
        while let event = await events.next() {
            transcript.event(event)
            seen.append(event)
            if last(event) { return seen }
        }
        transcript.note("(the event stream finished early)")
        return seen
    }

    /// Reads and prints events until the stream finishes.
    private func readToEnd(_ events: inout Events, into transcript: Transcript) async -> [FeedEvent] {
        var seen: [FeedEvent] = []
        while let event = await events.next() {
            transcript.event(event)
            seen.append(event)
        }
        return seen
    }

    /// The API's stats once no request is in flight (a rendezvous, not a poll).
    private func settledStats(of api: SimulatedFeedAPI) async -> SimulatedFeedAPI.Stats {
        await api.waitUntilIdle()
        return api.stats
    }

    private func ids(_ items: some Sequence<FeedItem>) -> [Int] { items.map(\.id) }

    /// Post numbers strictly descending by one: no gap, no duplicate, no second edition.
    private func isContiguous(_ snapshot: FeedSnapshot<FeedItem>) -> Bool {
        zip(snapshot, snapshot.dropFirst()).allSatisfy { $0.id == $1.id + 1 }
    }
}
