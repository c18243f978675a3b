import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

/// Saved times and wall-clock instants at the ends of `Duration`'s range: saturated, never a
/// trap (found by the public-numbers fuzzer).
@Suite("Extreme saved times")
struct ExtremeTimesTests {
    static let end = Duration(attoseconds: .max)
    static let start = Duration(attoseconds: .min)

    @Test("RestorePolicy.ifOlderThan: a saved time at either end of the range is an age, not a trap")
    func restorePolicyAges() {
        let clock = TestClock(now: .init(offset: .seconds(1_800_000_000)))
        // Saved at the start of time: very old, refreshed.
        #expect(RestorePolicy.ifOlderThan(.seconds(60), clock: clock).refreshes(savedAt: Self.start))
        // Saved at the end of time: a negative age, counted as stale.
        #expect(RestorePolicy.ifOlderThan(.seconds(60), clock: clock).refreshes(savedAt: Self.end))
        let late = TestClock(now: .init(offset: Self.end))
        #expect(RestorePolicy.ifOlderThan(.seconds(60), clock: late).refreshes(savedAt: Self.start))
        #expect(!RestorePolicy.ifOlderThan(.seconds(60), clock: late).refreshes(savedAt: Self.end))
    }

    @Test("WallClock.Instant arithmetic saturates")
    func wallClockInstants() {
        let late = WallClock.Instant(timeSinceEpoch: .seconds(Int64.max))
        #expect(late.advanced(by: Self.end).timeSinceEpoch == Self.end)
        let early = WallClock.Instant(timeSinceEpoch: Self.start)
        #expect(early.advanced(by: .seconds(-1)).timeSinceEpoch == Self.start)
        #expect(early.duration(to: late.advanced(by: Self.end)) == Self.end)
        #expect(late.advanced(by: Self.end).duration(to: early) == Self.start)
    }

    @Test("FeedState: a saved time beyond Int64.max seconds is saturated to what JSON holds, and encodes")
    func savedAtSaturates() throws {
        let pages = [Page<Int, Int>(items: [1, 2], next: nil)]
        let late = try FeedState(pages: pages, savedAt: Self.end)
        #expect(late.savedAt == .seconds(Int64.max))
        let early = try FeedState(pages: pages, savedAt: Self.start)
        #expect(early.savedAt == .seconds(Int64.min))
        for state in [late, early] {
            let decoded = try JSONDecoder().decode(FeedState<Int, Int>.self, from: JSONEncoder().encode(state))
            #expect(decoded == state)
        }
    }
}
