import Foundation
import Testing
import AsyncPaging
import AsyncPagingTesting

/// The JSON shapes of the engine's value types: exact for a few (they are documented, so
/// clients depend on them), and a round trip for every case.
@Suite("Codable value types")
struct CodableTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(try json(value).utf8))
    }

    static let failure = FeedFailure(error: ServerError(code: 503), side: .loadMore, attempt: 2)

    @Test("documented shapes")
    func shapes() throws {
        #expect(try Self.json(FeedSide.loadMore) == #""loadMore""#)
        #expect(try Self.json(FeedEvent.began(.refresh)) == #"{"kind":"began","side":"refresh"}"#)
        #expect(try Self.json(FeedEvent.ended(.loadMore, .cancelled(.preemptedByRefresh)))
            == #"{"kind":"ended","reason":{"kind":"cancelled","reason":"preemptedByRefresh"},"side":"loadMore"}"#)
        #expect(try Self.json(Self.failure)
            == #"{"attempt":2,"errorDescription":"server error 503","errorType":"AsyncPagingTests.ServerError","side":"loadMore"}"#)
        #expect(try Self.json(LoadResult(side: nil, outcome: .ignored(.firstPageLoading)))
            == #"{"joinedInFlightLoad":false,"outcome":{"kind":"ignored","reason":"firstPageLoading"},"side":null}"#)
        #expect(try Self.json(LoadResult(side: .refresh, outcome: .completed(LoadSummary(itemsApplied: 15))))
            == #"{"joinedInFlightLoad":false,"outcome":{"kind":"completed","summary":{"droppedDuplicates":0,"itemsApplied":15,"reachedEnd":false}},"side":"refresh"}"#)
        #expect(try Self.json(FeedChange.appended(15..<30)) == #"{"kind":"appended","lowerBound":15,"upperBound":30}"#)
        #expect(try Self.json(FeedDiagnostic.retryScheduled(
            side: .loadMore, retryNumber: 1, delay: .milliseconds(1500), failure: Self.failure))
            == #"{"delay":{"attoseconds":500000000000000000,"seconds":1},"failure":{"attempt":2,"errorDescription":"server error 503","errorType":"AsyncPagingTests.ServerError","side":"loadMore"},"kind":"retryScheduled","retryNumber":1,"side":"loadMore"}"#)
        #expect(try Self.json(FeedDiagnostic.fetchCancelled(side: .loadMore, attempt: 1))
            == #"{"attempt":1,"kind":"fetchCancelled","side":"loadMore"}"#)
        #expect(try Self.json(FeedChange.ends(FeedEndsChange(removedAtStart: 20, insertedAtEnd: 20)))
            == #"{"insertedAtEnd":20,"insertedAtStart":0,"kind":"ends","removedAtEnd":0,"removedAtStart":20}"#)
        #expect(try Self.json(FeedChange.removed([3])) == #"{"indices":[3],"kind":"removed"}"#)
        #expect(try Self.json(FeedChange.reloaded(FeedAnchorMove(from: 5_000, to: 7))) == #"{"from":5000,"kind":"reloaded","to":7}"#)
        #expect(try Self.json(FeedChange.reloaded(FeedAnchorMove(from: 3, to: nil))) == #"{"from":3,"kind":"reloaded"}"#)
        #expect(try Self.json(FeedDiagnostic.pagesDropped(side: .loadPrevious, pages: 2, items: 40))
            == #"{"items":40,"kind":"pagesDropped","pages":2,"side":"loadPrevious"}"#)
    }

    @Test("changes with negative counts or indices out of order are a DecodingError")
    func badChanges() {
        for text in [
            #"{"kind":"ends","removedAtStart":-1,"insertedAtStart":0,"insertedAtEnd":0,"removedAtEnd":0}"#,
            #"{"kind":"ends","removedAtStart":1}"#,
            #"{"kind":"removed","indices":[4,2]}"#,
            #"{"kind":"updated","indices":[-1]}"#,
            #"{"kind":"updated","indices":[1,1]}"#,
            #"{"kind":"reloaded","from":-1,"to":2}"#,
            #"{"kind":"reloaded","from":1,"to":-2}"#,
            #"{"kind":"reloaded","to":2}"#,
        ] {
            #expect(throws: DecodingError.self, "\(text)") { try JSONDecoder().decode(FeedChange.self, from: Data(text.utf8)) }
        }
    }

    @Test("a failure decodes into a DecodedError with the original's type and description")
    func failureRoundTrip() throws {
        let decoded = try Self.roundTrip(Self.failure)
        let error = try #require(decoded.error as? DecodedError)
        #expect(error == DecodedError(typeName: "AsyncPagingTests.ServerError", message: "server error 503"))
        #expect(decoded.side == .loadMore && decoded.attempt == 2)
        #expect("\(decoded)" == "\(Self.failure)")
        // A decoded failure encodes as the original did.
        #expect(try Self.json(decoded) == Self.json(Self.failure))
        #expect(try Self.roundTrip(decoded) == decoded)
    }

    @Test("every case survives a round trip")
    func roundTrips() throws {
        let decodedFailure = try Self.roundTrip(Self.failure)
        for side in FeedSide.allCases { #expect(try Self.roundTrip(side) == side) }
        let reasons = CancellationReason.allCases
        for reason in reasons { #expect(try Self.roundTrip(reason) == reason) }
        let ignores = IgnoreReason.allCases // every case, so that a new one cannot go unnamed
        for reason in ignores { #expect(try Self.roundTrip(reason) == reason) }
        let ends: [FeedEndReason] = [.completed, .endOfData, .cancelled(.closed), .failed(decodedFailure)]
        for end in ends {
            #expect(try Self.roundTrip(end) == end)
            #expect(try Self.roundTrip(FeedEvent.ended(.refresh, end)) == .ended(.refresh, end))
        }
        #expect(try Self.roundTrip(FeedEvent.began(.loadMore)) == .began(.loadMore))
        let summary = LoadSummary(itemsApplied: 3, droppedDuplicates: 2, reachedEnd: true)
        #expect(try Self.roundTrip(summary) == summary)
        let outcomes: [LoadOutcome] = [
            .completed(summary), .endOfData, .cancelled(.preemptedByLoadMore), .failed(decodedFailure), .ignored(.closed),
        ]
        for outcome in outcomes {
            #expect(try Self.roundTrip(outcome) == outcome)
            let result = LoadResult(side: .loadMore, outcome: outcome, joinedInFlightLoad: true)
            #expect(try Self.roundTrip(result) == result)
        }
        let statuses: [FeedStatus] = [
            .idle, .refreshing, .loadingMore, .loadingPrevious, .endOfData, .failed(decodedFailure), .closed,
        ]
        for status in statuses { #expect(try Self.roundTrip(status) == status) }
        let states = FeedLoadStates(refresh: .failed(decodedFailure), loadPrevious: .reachedEnd, loadMore: .loading)
        #expect(try Self.roundTrip(states) == states)
        #expect(try Self.roundTrip(FeedLoadStates.idle) == .idle)
        let cursors = FeedCursors(previous: 4, next: 6, reachedEnd: false, reachedStart: true)
        #expect(try Self.roundTrip(cursors) == cursors)
        let changes: [FeedChange] = [
            .initial, .replaced, .appended(0..<0), .appended(3..<9), .prepended(0..<7),
            .extended(prepended: 0..<2, appended: 10..<12),
            .ends(FeedEndsChange(removedAtStart: 20, insertedAtStart: 0, insertedAtEnd: 20, removedAtEnd: 0)),
            .updated([3]), .updated([]), .removed([0, 4, 9]),
            .reloaded(FeedAnchorMove(from: 5_000, to: 7)), .reloaded(FeedAnchorMove(from: 0, to: nil)),
        ]
        for change in changes { #expect(try Self.roundTrip(change) == change) }
        let diagnostics: [FeedDiagnostic] = [
            .staleResultDiscarded(side: .refresh, attempt: 2, succeeded: false),
            .duplicatesDropped(side: .loadMore, count: 4),
            .fetchCancelled(side: .refresh, attempt: 3),
            .retryScheduled(side: .loadMore, retryNumber: 3, delay: .nanoseconds(1), failure: decodedFailure),
            .timedOut(side: .refresh, attempt: 1),
            .pagesDropped(side: .loadPrevious, pages: 2, items: 40),
            .pagesKeptOverBound(side: .loadMore, itemCount: 1_020),
        ]
        for diagnostic in diagnostics { #expect(try Self.roundTrip(diagnostic) == diagnostic) }
    }

    @Test("a snapshot of a controller encodes its items, and decodes into an equal list")
    func snapshotRoundTrip() async throws {
        struct Row: Codable, Sendable, Hashable { let id: Int; let title: String }
        let feed = FeedController<Row, Int>(
            clock: ImmediateClock(), configuration: configuration(pageSize: 3, loadsInitialPage: false)
        ) { request in
            let start = request.cursor ?? 0
            return Page(items: (start..<start + 3).map { Row(id: $0, title: "row \($0)") }, next: start + 3)
        }
        _ = await feed.refresh()
        _ = await feed.loadMore()
        let snapshot = feed.currentSnapshot
        let text = try Self.json(snapshot)
        #expect(text.hasPrefix(#"{"change":{"kind":"appended","lowerBound":3,"upperBound":6},"generation":"#))
        let decoded = try JSONDecoder().decode(FeedSnapshot<Row>.self, from: Data(text.utf8))
        #expect(Array(decoded) == Array(snapshot))
        #expect(decoded.version == snapshot.version && decoded.generation == snapshot.generation)
        #expect(decoded.change == snapshot.change)
        #expect(try Self.json(decoded) == text)
    }

    @Test("bad JSON is a DecodingError, never a trap")
    func badInput() {
        let inputs = [
            #"{"kind":"exploded","side":"refresh"}"#,
            #"{"kind":"appended","lowerBound":5,"upperBound":2}"#,
            #""sideways""#,
            #"{"kind":"ended","side":"refresh"}"#,
        ]
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedEvent.self, from: Data(inputs[0].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedChange.self, from: Data(inputs[1].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedSide.self, from: Data(inputs[2].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FeedEvent.self, from: Data(inputs[3].utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CancellationReason.self, from: Data(#""later""#.utf8)) }
    }
}
