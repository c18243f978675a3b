import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

/// Issue 22: every public number of the engine and the test kit, fuzzed for traps and hangs —
/// the test kit's clocks, `WallClock`'s instants, retry delays with a server's `Retry-After`,
/// saved states and restore policies, and controllers driven with extreme configurations,
/// latencies, cursors, anchors and edits. (The session registry's inputs are fuzzed with it.)
@Suite("Fuzz: public numbers never trap", .serialized) // one fuzzing child at a time
struct PublicNumbersFuzzTests {
    @Test("TestClock and ImmediateClock: any advance, deadline, sleep and instant arithmetic")
    func clocks() async {
        FuzzHarness.announce(ClockFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(ClockFuzz.self) }
        FuzzHarness.report(ClockFuzz.self, result)
    }

    @Test("RetryPolicy.delay: any policy, retry number, random unit and Retry-After")
    func retryDelays() async {
        FuzzHarness.announce(RetryDelayFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(RetryDelayFuzz.self) }
        FuzzHarness.report(RetryDelayFuzz.self, result)
    }

    @Test("FeedState, its JSON, RestorePolicy and WallClock: any anchor, saved time, age and instant")
    func restoreNumbers() async {
        FuzzHarness.announce(RestoreNumbersFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(RestoreNumbersFuzz.self) }
        FuzzHarness.report(RestoreNumbersFuzz.self, result)
    }

    @Test("controllers: any accepted configuration, latency, cursor, export anchor, restore input and edit")
    func controllers() async {
        FuzzHarness.announce(ControllerNumbersFuzz.self)
        let result = await #expect(processExitsWith: .success) { await FuzzHarness.runChild(ControllerNumbersFuzz.self) }
        FuzzHarness.report(ControllerNumbersFuzz.self, result)
    }
}

extension FuzzRandom {
    /// A duration that is often at the very ends of `Duration`'s range.
    mutating func extremeDuration() -> Duration {
        switch next() % 4 {
        case 0: return Duration(attoseconds: .max)
        case 1: return Duration(attoseconds: .min)
        default: return duration()
        }
    }

    mutating func optionalInteger() -> Int? { bool() ? integer() : nil }
}

enum ClockFuzz: FuzzCase {
    enum Step: CustomStringConvertible {
        case advanceBy(Duration), advanceTo(Duration), sleepUntil(Duration), immediateSleep(Duration), arithmetic(Duration, Duration)
        var description: String {
            switch self {
            case .advanceBy(let d): "advance(by: \(d))"
            case .advanceTo(let d): "advance(to: t+\(d))"
            case .sleepUntil(let d): "sleep(until: t+\(d))"
            case .immediateSleep(let d): "ImmediateClock.sleep(for: \(d))"
            case .arithmetic(let a, let b): "Instant(\(a)).advanced(by: \(b)) / duration(to:)"
            }
        }
    }

    struct Input: CustomStringConvertible {
        var start: Duration
        var steps: [Step]
        /// A count at or below zero for the test kit's waits, which are then met at once.
        var count: Int
        var description: String { "TestClock(now: t+\(start)): \(steps), waits for \(count)" }
    }

    static let name = "Clocks"
    static let defaultInputCount = 2_000

    static func input(_ random: inout FuzzRandom) -> Input {
        let steps = (0..<Int(random.next() % 40)).map { _ -> Step in
            switch random.next() % 5 {
            case 0: .advanceBy(random.extremeDuration())
            case 1: .advanceTo(random.extremeDuration())
            case 2: .sleepUntil(random.extremeDuration())
            case 3: .immediateSleep(random.extremeDuration())
            default: .arithmetic(random.extremeDuration(), random.extremeDuration())
            }
        }
        return Input(start: random.extremeDuration(), steps: steps, count: min(random.integer(), 0))
    }

    static func violation(_ input: Input) async -> String? {
        let clock = TestClock(now: .init(offset: input.start))
        let immediate = ImmediateClock(now: .init(offset: input.start))
        // The test kit's waits for counts: met at once by any count at or below what is there.
        guard await clock.waitForSleepers(input.count) else { return "waitForSleepers(\(input.count)) was not met" }
        let source = ScriptedPageSource<Int, Int>()
        guard await source.waitForRequests(input.count), await source.waitForCompletions(input.count) else {
            return "ScriptedPageSource's waits for \(input.count) were not met"
        }
        let recorder = StreamRecorder(AsyncStream<Int> { $0.finish() })
        _ = await recorder.waitForCount(input.count)
        for step in input.steps {
            let before = clock.now
            switch step {
            case .advanceBy(let duration):
                clock.advance(by: duration)
            case .advanceTo(let offset):
                clock.advance(to: .init(offset: offset))
            case .sleepUntil(let offset):
                let deadline = TestClock.Instant(offset: offset)
                let sleeper = Task { try await clock.sleep(until: deadline) }
                if deadline > clock.now {
                    await clock.waitForSleepers(1)
                    clock.advance(to: deadline)
                    if clock.now != deadline { return "advance(to: \(deadline)) left now at \(clock.now)" }
                }
                do { try await sleeper.value } catch { return "sleep(until: \(deadline)) threw \(error)" }
            case .immediateSleep(let duration):
                let previous = immediate.now
                try? await immediate.sleep(for: duration)
                if immediate.now < previous { return "ImmediateClock went back to \(immediate.now)" }
            case .arithmetic(let offset, let duration):
                let instant = TestClock.Instant(offset: offset)
                let later = instant.advanced(by: duration)
                if duration > .zero && later < instant { return "\(instant).advanced(by: \(duration)) went back" }
                if duration < .zero && later > instant { return "\(instant).advanced(by: \(duration)) went forward" }
                let back = instant.duration(to: later)
                if back != duration && later.offset != Duration(attoseconds: .max) && later.offset != Duration(attoseconds: .min) {
                    return "duration(to:) gave \(back), not \(duration)"
                }
                _ = later.description
            }
            if clock.now < before { return "now went back from \(before) to \(clock.now) at \(step)" }
            if clock.sleeperCount != 0 { return "a sleeper is left after \(step)" }
        }
        return nil
    }
}

/// An error that carries a server's delay.
struct FuzzThrottle: PageSourceError {
    var retryAfter: Duration?
    var isRetryable: Bool { true }
}

enum RetryDelayFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var policy: RetryPolicy
        var retryNumber: Int
        var randomUnit: Double
        var retryAfter: Duration?
        var description: String { "\(policy).delay(beforeRetry: \(retryNumber), after: Retry-After \(String(describing: retryAfter)), randomUnit: \(randomUnit))" }
    }

    static let name = "RetryDelay"
    static let defaultInputCount = 20_000

    static func input(_ random: inout FuzzRandom) -> Input {
        let policy = random.bool() ? random.retryPolicy() : random.acceptedRetryPolicy()
        return Input(
            policy: policy, retryNumber: random.integer(), randomUnit: random.double(),
            retryAfter: random.next() % 4 == 0 ? nil : random.extremeDuration())
    }

    static func violation(_ input: Input) async -> String? {
        let delay = input.policy.delay(
            beforeRetry: input.retryNumber, after: FuzzThrottle(retryAfter: input.retryAfter), randomUnit: input.randomUnit)
        guard delay >= .zero, delay <= longestTimerDelay else { return "delay \(delay)" }
        if let asked = input.retryAfter {
            let expected = min(max(asked, .zero), max(input.policy.maximumBackoff, .zero), longestTimerDelay)
            if delay != expected { return "delay \(delay), expected \(expected)" }
        }
        return nil
    }
}

enum RestoreNumbersFuzz: FuzzCase {
    struct Input: CustomStringConvertible {
        var pageLengths: [Int]
        var generation: UInt64
        var anchorIndex: Int?
        var savedAt: Duration?
        var maximumAge: Duration
        var clockNow: Duration
        var jsonSeconds: Int64
        var jsonAttoseconds: Int64
        var jsonAnchor: Int
        var description: String {
            "pages \(pageLengths), generation \(generation), anchor \(String(describing: anchorIndex)), savedAt \(String(describing: savedAt)), maximumAge \(maximumAge), clock t+\(clockNow), JSON savedAt (\(jsonSeconds), \(jsonAttoseconds)) anchor \(jsonAnchor)"
        }
    }

    static let name = "RestoreNumbers"
    static let defaultInputCount = 5_000

    static func input(_ random: inout FuzzRandom) -> Input {
        Input(
            pageLengths: (0..<Int(random.next() % 4)).map { _ in Int(random.next() % 4) },
            generation: random.next(), anchorIndex: random.optionalInteger(),
            savedAt: random.bool() ? random.extremeDuration() : nil, maximumAge: random.extremeDuration(),
            clockNow: random.extremeDuration(), jsonSeconds: Int64(bitPattern: random.next()),
            jsonAttoseconds: random.bool() ? Int64(bitPattern: random.next()) : Int64(random.next() % 1_000_000_000_000_000_000),
            jsonAnchor: random.integer())
    }

    static func violation(_ input: Input) async -> String? {
        var first = 0
        let pages = input.pageLengths.enumerated().map { index, length -> Page<Int, Int> in
            defer { first += length }
            return Page(items: Array(first..<first + length), previous: index > 0 ? index - 1 : nil, next: index + 1)
        }
        let clock = TestClock(now: .init(offset: input.clockNow))
        _ = RestorePolicy.ifOlderThan(input.maximumAge, clock: clock).refreshes(savedAt: input.savedAt)
        _ = RestorePolicy.ifOlderThan(input.maximumAge, clock: WallClock()).refreshes(savedAt: input.savedAt)
        let wall = WallClock.Instant(timeSinceEpoch: input.clockNow)
        _ = wall.advanced(by: input.maximumAge).duration(to: wall)
        _ = wall.description
        if let state = try? FeedState(
            pages: pages, generation: input.generation, anchorIndex: input.anchorIndex, savedAt: input.savedAt) {
            if let anchor = state.anchorIndex, !(0..<state.itemCount).contains(anchor) { return "accepted anchor \(anchor)" }
            _ = state.anchorItem
            guard let data = try? JSONEncoder().encode(state) else { return "the state did not encode" }
            guard let decoded = try? JSONDecoder().decode(FeedState<Int, Int>.self, from: data) else { return "the state did not decode" }
            if decoded != state { return "the state changed through JSON: \(String(decoding: data, as: UTF8.self))" }
        }
        let json = """
            {"format": 1, "generation": 1, "anchorIndex": \(input.jsonAnchor),
             "savedAt": {"seconds": \(input.jsonSeconds), "attoseconds": \(input.jsonAttoseconds)},
             "pages": [{"items": [1, 2, 3], "previous": null, "next": 1}]}
            """
        if let state = try? JSONDecoder().decode(FeedState<Int, Int>.self, from: Data(json.utf8)) {
            _ = RestorePolicy.ifOlderThan(input.maximumAge, clock: clock).refreshes(savedAt: state.savedAt)
            _ = try? JSONEncoder().encode(state)
        }
        return nil
    }
}

/// An item with an id, for edits.
struct FuzzNote: Identifiable, Sendable, Hashable {
    let id: Int
}

enum ControllerNumbersFuzz: FuzzCase {
    enum Step: CustomStringConvertible {
        case refresh, loadMore, loadPrevious, refreshFrom(Int), remove([Int]), update(Int), insert(Int)
        case export(Int?), restore(anchor: Int?, savedAt: Duration?)
        var description: String {
            switch self {
            case .refresh: "refresh"
            case .loadMore: "loadMore"
            case .loadPrevious: "loadPrevious"
            case .refreshFrom(let cursor): "refresh(from: \(cursor))"
            case .remove(let ids): "remove(ids: \(ids))"
            case .update(let id): "update(id: \(id))"
            case .insert(let id): "insertAtTop(\(id))"
            case .export(let anchor): "exportState(anchorIndex: \(String(describing: anchor)))"
            case .restore(let anchor, let savedAt): "restore(anchor: \(String(describing: anchor)), savedAt: \(String(describing: savedAt)))"
            }
        }
    }

    struct Input: CustomStringConvertible {
        var pageSize: Int
        var maximumItems: Int?
        var emptyPagesFollowed: Int
        var timeout: Duration?
        var retry: RetryPolicy
        var pageLength: Int
        var latency: Duration
        var initialCursor: Int?
        var steps: [Step]
        var description: String {
            "pageSize \(pageSize), maximumItems \(String(describing: maximumItems)), emptyPagesFollowed \(emptyPagesFollowed), timeout \(String(describing: timeout)), retry \(retry), pages of \(pageLength), latency \(latency), initialCursor \(String(describing: initialCursor)), steps \(steps)"
        }
    }

    static let name = "ControllerNumbers"
    static let defaultInputCount = 400

    static func input(_ random: inout FuzzRandom) -> Input {
        let steps = (0..<Int(random.next() % 12)).map { _ -> Step in
            switch random.next() % 9 {
            case 0: .refresh
            case 1: .loadMore
            case 2: .loadPrevious
            case 3: .refreshFrom(random.integer())
            case 4: .remove((0..<Int(random.next() % 4)).map { _ in random.bool() ? random.integer() : Int(random.next() % 40) })
            case 5: .update(random.bool() ? random.integer() : Int(random.next() % 40))
            case 6: .insert(random.integer())
            case 7: .export(random.optionalInteger())
            default: .restore(anchor: random.optionalInteger(), savedAt: random.bool() ? random.extremeDuration() : nil)
            }
        }
        let sizes = [1, 2, 3, 10, Int.max, Int.max - 1, 1 << 40]
        let bounds: [Int?] = [nil, 1, 2, 5, 20, Int.max, Int.max - 1]
        let timeout = random.next() % 3 == 0 ? positive(random.extremeDuration()) : .zero
        return Input(
            pageSize: random.bool() ? sizes[Int(random.next() % UInt64(sizes.count))] : random.integer(),
            maximumItems: random.bool() ? bounds[Int(random.next() % UInt64(bounds.count))] : random.optionalInteger(),
            emptyPagesFollowed: random.bool() ? Int(random.next() % 4) : random.integer(),
            timeout: timeout > .zero ? timeout : nil,
            retry: random.bool() ? random.acceptedRetryPolicy() : random.retryPolicy(),
            pageLength: Int(random.next() % 5), latency: random.extremeDuration(),
            initialCursor: random.optionalInteger(), steps: steps)
    }

    static func violation(_ input: Input) async -> String? {
        let configuration: FeedConfiguration
        do {
            configuration = try FeedConfiguration(
                pageSize: input.pageSize, retry: input.retry, timeout: input.timeout,
                maximumEmptyPagesFollowed: input.emptyPagesFollowed, maximumItems: input.maximumItems)
        } catch {
            // Refused with a typed error: try the same steps with the defaults' numbers.
            return await run(input, configuration: (try? FeedConfiguration(pageSize: 3, maximumItems: input.maximumItems.map { max($0, 1) })) ?? .default)
        }
        return await run(input, configuration: configuration)
    }

    static func run(_ input: Input, configuration: FeedConfiguration) async -> String? {
        let clock = ImmediateClock()
        let epoch = TestClock(now: .init(offset: input.latency)) // stamps and ages saved states
        let length = input.pageLength
        let latency = input.latency
        // Page `c` holds ids `c * length ..< c * length + length` (wrapping: cursors may be any
        // integer), with both neighbours as cursors.
        let fetch: @Sendable (PageRequest<Int>) async throws -> Page<FuzzNote, Int> = { request in
            try await request.clock.sleep(for: latency)
            let page = request.cursor ?? 0
            let first = page &* length
            return Page(
                items: (0..<length).map { FuzzNote(id: first &+ $0) },
                previous: page == Int.min ? nil : page &- 1, next: page == Int.max ? nil : page &+ 1)
        }
        var feed = FeedController<FuzzNote, Int>(clock: clock, configuration: configuration, initialCursor: input.initialCursor, fetch: fetch)
        _ = await feed.waitForFirstPage()
        var exported: FeedState<FuzzNote, Int>?
        for step in input.steps {
            switch step {
            case .refresh: _ = await feed.refresh()
            case .loadMore: _ = await feed.loadMore()
            case .loadPrevious: _ = await feed.loadPrevious()
            case .refreshFrom(let cursor): _ = await feed.refresh(from: cursor)
            case .remove(let ids):
                // A restored controller's refresh (its policy's) may land while the edit hops
                // onto the controller: the count is compared within one list only.
                let before = feed.currentSnapshot
                if let removed = try? await feed.remove(ids: ids), feed.currentSnapshot.generation == before.generation {
                    if feed.currentSnapshot.count != before.count - removed.count { return "remove(ids: \(ids)) removed \(removed) but the list went from \(before.count) to \(feed.currentSnapshot.count)" }
                }
            case .update(let id): _ = try? await feed.update(FuzzNote(id: id))
            case .insert(let id): try? await feed.insertAtTop([FuzzNote(id: id)])
            case .export(let anchor):
                // As for edits: a restored controller's refresh may land around the export, so
                // the count is compared only when the list did not change meanwhile.
                let before = feed.currentSnapshot.version
                do { exported = try await feed.exportState(anchorIndex: anchor, savedBy: epoch) } catch {
                    return "exportState(anchorIndex: \(String(describing: anchor))) threw \(error)"
                }
                if let exported, feed.currentSnapshot.version == before, exported.itemCount != feed.currentSnapshot.count {
                    return "exported \(exported.itemCount) items of \(feed.currentSnapshot.count)"
                }
            case .restore(let anchor, let savedAt):
                var saved = exported
                if saved == nil {
                    do { saved = try await feed.exportState(savedBy: epoch) } catch { return "exportState threw \(error)" }
                }
                guard let state = saved else { break }
                let restored = (try? FeedState(pages: state.pages, generation: state.generation, anchorIndex: anchor, savedAt: savedAt)) ?? state
                await feed.close()
                feed = FeedController<FuzzNote, Int>(
                    clock: clock, configuration: configuration, restoring: restored,
                    restorePolicy: .ifOlderThan(savedAt ?? .zero, clock: epoch), fetch: fetch)
            }
        }
        _ = feed.currentSnapshot.map(\.id)
        await feed.close()
        return nil
    }
}
