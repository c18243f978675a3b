import AsyncPaging
import AsyncPagingTesting
import Foundation
import Testing

/// The saved-state value on its own: what it accepts, its JSON shape, and what bad input gives
/// (a `DecodingError` for input that is not a state, a `FeedStateError` for one that cannot
/// be restored; never a trap).
@Suite("Feed state")
struct FeedStateTests {
    typealias Fixtures = RestoreFixtures

    func expectStateError(_ expected: FeedStateError, _ make: () throws(FeedStateError) -> PostState) {
        do {
            let state = try make()
            Issue.record("expected \(expected), made \(state)")
        } catch {
            #expect(error == expected)
        }
    }

    @Test("a valid state keeps its pages, generation, anchor and time; items and anchor item are read from the pages")
    func validState() throws {
        let state = try PostState(
            pages: [Fixtures.page(4), Fixtures.page(5)], generation: 7, anchorIndex: 13, savedAt: .seconds(90))
        #expect(state.pages == [Fixtures.page(4), Fixtures.page(5)])
        #expect(state.generation == 7)
        #expect(state.itemCount == 20)
        #expect(state.items.map(\.id) == Array(40..<60))
        #expect(state.anchorIndex == 13)
        #expect(state.anchorItem?.id == 53)
        #expect(state.savedAt == .seconds(90))
    }

    @Test("the anchor by id is found in the pages; an id not there saves no anchor")
    func anchorByID() throws {
        let found = try PostState(pages: [Fixtures.page(4), Fixtures.page(5)], anchorID: 57)
        #expect(found.anchorIndex == 17)
        let missing = try PostState(pages: [Fixtures.page(4)], anchorID: 99)
        #expect(missing.anchorIndex == nil)
    }

    @Test("an empty list is one page without items; no pages at all is an error")
    func pagesRequired() throws {
        #expect(try PostState(pages: [Page(items: [], next: nil)]).itemCount == 0)
        expectStateError(.noPages) { () throws(FeedStateError) in try PostState(pages: []) }
    }

    @Test("a page after a page without next is an error")
    func pageAfterEnd() {
        let pages = [Fixtures.page(8), Fixtures.page(9), Fixtures.page(3)]
        expectStateError(.pageAfterEnd(pageIndex: 2)) { () throws(FeedStateError) in try PostState(pages: pages) }
    }

    @Test("a cursor that fetched two pages is an error, the first page's (the second page's previous) included")
    func repeatedCursor() {
        let loop = [Page(items: posts(0..<2), next: 1), Page(items: posts(2..<4), next: 1)]
        expectStateError(.repeatedCursor(pageIndex: 2, cursor: "1")) { () throws(FeedStateError) in
            try PostState(pages: loop + [Page(items: [], next: nil)])
        }
        // The first page was fetched with 2 (the second's `previous`), the second with 2 too.
        let back = [Page<Post, Int>(items: posts(0..<2), previous: nil, next: 2), Page(items: posts(2..<4), previous: 2, next: nil)]
        expectStateError(.repeatedCursor(pageIndex: 1, cursor: "2")) { () throws(FeedStateError) in try PostState(pages: back) }
    }

    @Test("an anchor outside the items is an error, negative or past the end")
    func anchorOutOfRange() {
        let pages = [Fixtures.page(4)]
        expectStateError(.anchorOutOfRange(index: -1, itemCount: 10)) { () throws(FeedStateError) in
            try PostState(pages: pages, anchorIndex: -1)
        }
        expectStateError(.anchorOutOfRange(index: 10, itemCount: 10)) { () throws(FeedStateError) in
            try PostState(pages: pages, anchorIndex: 10)
        }
        expectStateError(.anchorOutOfRange(index: 0, itemCount: 0)) { () throws(FeedStateError) in
            try PostState(pages: [Page(items: [], next: nil)], anchorIndex: 0)
        }
    }

    @Test("the JSON shape is the documented one, and decodes back to an equal state")
    func jsonShape() throws {
        let state = try PostState(
            pages: [Page(items: posts(0..<2), previous: nil, next: 1), Page(items: posts(2..<3), previous: 0, next: nil)],
            generation: 3, anchorIndex: 1, savedAt: .milliseconds(1500))
        let json = String(decoding: try Fixtures.json(state), as: UTF8.self)
        #expect(json == #"{"anchorIndex":1,"format":1,"generation":3,"pages":[{"items":[0,1],"next":1},{"items":[2],"previous":0}],"savedAt":{"attoseconds":500000000000000000,"seconds":1}}"#)
        #expect(try Fixtures.decode(json) == state)
        let bare = try PostState(pages: [Page(items: [], next: nil)], generation: 1)
        #expect(String(decoding: try Fixtures.json(bare), as: UTF8.self) == #"{"format":1,"generation":1,"pages":[{"items":[]}]}"#)
        #expect(try Fixtures.decode(#"{"format":1,"generation":1,"savedAt":null,"anchorIndex":null,"pages":[{"items":[],"next":null}]}"#) == bare)
    }

    @Test("truncated JSON is a DecodingError at every cut, never a trap")
    func truncated() throws {
        let json = String(decoding: try Fixtures.json(Fixtures.state(2...4, anchorIndex: 5, savedAt: .seconds(12))), as: UTF8.self)
        var cuts = 0
        for length in 0..<json.count {
            let cut = String(json.prefix(length))
            #expect(throws: DecodingError.self, "cut at \(length)") { try Fixtures.decode(cut) }
            cuts += 1
        }
        #expect(cuts == json.count)
    }

    @Test("wrong types, missing fields and another format are DecodingErrors")
    func wrongShapes() {
        let bad = [
            #"[]"#,
            #"{"format":1,"generation":1}"#,
            #"{"format":2,"generation":1,"pages":[{"items":[]}]}"#,
            #"{"format":"1","generation":1,"pages":[{"items":[]}]}"#,
            #"{"format":1,"generation":-1,"pages":[{"items":[]}]}"#,
            #"{"format":1,"generation":1,"pages":{"items":[]}}"#,
            #"{"format":1,"generation":1,"pages":[{"items":["a"]}]}"#,
            #"{"format":1,"generation":1,"pages":[{"items":[1],"next":"x"}]}"#,
            #"{"format":1,"generation":1,"pages":[{"next":1}]}"#,
            #"{"format":1,"generation":1,"anchorIndex":1.5,"pages":[{"items":[1,2]}]}"#,
            #"{"format":1,"generation":1,"savedAt":{"seconds":1},"pages":[{"items":[]}]}"#,
            #"{"format":1,"generation":1,"savedAt":3,"pages":[{"items":[]}]}"#,
        ]
        for json in bad {
            #expect(throws: DecodingError.self, "\(json)") { try Fixtures.decode(json) }
        }
    }

    @Test("JSON that decodes but cannot be restored gives the FeedStateError")
    func unrestorableJSON() {
        let cases: [(String, FeedStateError)] = [
            (#"{"format":1,"generation":1,"pages":[]}"#, .noPages),
            (#"{"format":1,"generation":1,"pages":[{"items":[0],"next":1},{"items":[1],"next":1},{"items":[2]}]}"#,
             .repeatedCursor(pageIndex: 2, cursor: "1")),
            (#"{"format":1,"generation":1,"pages":[{"items":[0]},{"items":[1]}]}"#, .pageAfterEnd(pageIndex: 1)),
            (#"{"format":1,"generation":1,"anchorIndex":2,"pages":[{"items":[0,1]}]}"#, .anchorOutOfRange(index: 2, itemCount: 2)),
            (#"{"format":1,"generation":1,"anchorIndex":-3,"pages":[{"items":[0,1]}]}"#, .anchorOutOfRange(index: -3, itemCount: 2)),
        ]
        for (json, expected) in cases {
            #expect(throws: expected, "\(json)") { try Fixtures.decode(json) }
        }
    }

    @Test("extreme times decode and age without a trap")
    func extremeTimes() throws {
        let far = try Fixtures.decode(
            #"{"format":1,"generation":1,"savedAt":{"seconds":9223372036854775807,"attoseconds":9223372036854775807},"pages":[{"items":[]}]}"#)
        let clock = TestClock()
        #expect(RestorePolicy.ifOlderThan(.seconds(1), clock: clock).refreshes(savedAt: far.savedAt), "a negative age is stale")
        let past = try Fixtures.decode(
            #"{"format":1,"generation":1,"savedAt":{"seconds":-9223372036854775808,"attoseconds":-9223372036854775808},"pages":[{"items":[]}]}"#)
        #expect(RestorePolicy.ifOlderThan(.seconds(1), clock: clock).refreshes(savedAt: past.savedAt))
    }

    @Test("the policies: never, always, and the age rule on an epoch clock (equal is fresh; unknown and negative are stale)")
    func policies() {
        let clock = TestClock()
        clock.advance(by: .seconds(100))
        let policy = RestorePolicy.ifOlderThan(.seconds(30), clock: clock)
        #expect(!RestorePolicy.never.refreshes(savedAt: nil))
        #expect(RestorePolicy.always.refreshes(savedAt: .seconds(100)))
        #expect(!policy.refreshes(savedAt: .seconds(90)))
        #expect(!policy.refreshes(savedAt: .seconds(70)))
        #expect(policy.refreshes(savedAt: .seconds(69)))
        #expect(policy.refreshes(savedAt: nil))
        #expect(policy.refreshes(savedAt: .seconds(101)))
    }

    @Test("the wall clock reads real time since 1970 and is a Clock")
    func wallClock() async throws {
        let clock = WallClock()
        let reading = clock.timeSinceEpoch
        // 2020-09-13 and 2100-01-01: any machine's clock that is set is between them.
        #expect(reading > .seconds(1_600_000_000) && reading < .seconds(4_102_444_800))
        #expect(clock.now.timeSinceEpoch >= reading)
        let start = ContinuousClock.now
        try await clock.sleep(until: clock.now.advanced(by: .milliseconds(20)))
        #expect(ContinuousClock.now - start >= .milliseconds(15))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-5)))
    }
}
