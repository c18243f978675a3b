import Foundation
import Testing
import AsyncPaging
import AsyncPagingHTTP
import AsyncPagingTesting

/// Issue 22: no number the HTTP module takes traps — `Retry-After` values, statuses, offsets,
/// page numbers and page sizes — in-process, seeded (`ASYNCPAGING_FUZZ_SEED`, default 11) and
/// as many inputs as `ASYNCPAGING_FUZZ_INPUTS` says (default 2,000). A trap ends the run; the
/// failing input is the last one printed before it with `ASYNCPAGING_FUZZ_VERBOSE=1`.
@Suite("Fuzz: HTTP numbers never trap")
struct NumericInputFuzzTests {
    struct Row: Codable, Sendable { let id: Int }
    struct Counted: Codable, Sendable { let rows: [Row]; let total: Int? }

    /// Answers every request with `response`.
    struct CannedTransport: HTTPTransport {
        let response: HTTPTransportResponse
        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse { response }
    }

    static var environment: [String: String] { ProcessInfo.processInfo.environment }
    static var seed: UInt64 { environment["ASYNCPAGING_FUZZ_SEED"].flatMap { UInt64($0) } ?? 11 }
    static var inputCount: Int { environment["ASYNCPAGING_FUZZ_INPUTS"].flatMap { Int($0) } ?? 2_000 }
    static var verbose: Bool { environment["ASYNCPAGING_FUZZ_VERBOSE"] == "1" }

    static func integer(_ random: inout SeededRandom) -> Int {
        let edges = [0, 1, -1, 2, Int.max, Int.min, Int.max - 1, Int.min + 1, 1 << 32, -(1 << 32), 200, 429, 999, 1000]
        switch random.next() % 3 {
        case 0: return edges[Int(random.next() % UInt64(edges.count))]
        case 1: return Int(truncatingIfNeeded: random.next())
        default: return Int(random.next() % 200) - 50
        }
    }

    static func retryAfterText(_ random: inout SeededRandom) -> String {
        let texts = [
            "0", "-0", "00000000000000000000000000001", String(UInt64.max), String(Int64.max), "9223372036854776",
            "NaN", "nan", "inf", "-inf", "1e308", "1e-308", "+5", " 7 ", "", "Fri, 31 Dec 9999 23:59:59 GMT",
            "Thu, 01 Jan 1970 00:00:00 GMT", "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT",
            "Sun Nov  6 08:49:37 99999", "Mon, 01 Jan 0001 00:00:00 GMT", "Sat, 31 Dec 292277026596 23:59:59 GMT",
        ]
        switch random.next() % 3 {
        case 0: return texts[Int(random.next() % UInt64(texts.count))]
        case 1: return String(integer(&random))
        default: return String(repeating: "9", count: Int(random.next() % 60) + 1)
        }
    }

    @Test("RetryAfter.parse and the retry delay it gives: any header value, any policy maximum")
    func retryAfter() {
        var random = SeededRandom(seed: Self.seed)
        let now = Date(timeIntervalSince1970: 784_111_777)
        for index in 0..<Self.inputCount {
            let text = Self.retryAfterText(&random)
            if Self.verbose { print("retryAfter input \(index): \(text.debugDescription)") }
            guard let delay = RetryAfter.parse(text, now: now) else { continue }
            #expect(delay >= .zero && delay <= RetryAfter.longest, "\(text.debugDescription) → \(delay)")
            let maximum = Duration.seconds(Int64(truncatingIfNeeded: random.next()))
            let policy = RetryPolicy(maximumAttempts: 2, maximumBackoff: maximum)
            let error = HTTPPageError.status(429, bodyExcerpt: "", retryAfter: delay)
            let wait = policy.delay(beforeRetry: Self.integer(&random), after: error)
            #expect(wait >= .zero && wait <= max(maximum, .zero) && wait <= delay, "\(text.debugDescription), maximum \(maximum) → \(wait)")
        }
    }

    @Test("an offset or a page number that would pass Int.max is a typed error, not a trap")
    func nextCursorOverflow() async throws {
        let url = URL(string: "http://127.0.0.1:1/items")!
        let body = try JSONEncoder().encode(Counted(rows: [Row(id: 1), Row(id: 2)], total: nil))
        let transport = CannedTransport(response: HTTPTransportResponse(status: 200, body: body))
        let request = PageRequest(cursor: Int.max - 1, side: .loadMore, pageSize: 2, clock: ImmediateClock())
        let offsets = HTTPPageSource<Row, Int>.offsetLimit(url: url, body: Counted.self, items: \.rows, transport: transport)
        await #expect(throws: HTTPPageError.invalidPagination("the next offset passes Int.max")) {
            try await offsets.page(for: request)
        }
        let numbers = HTTPPageSource<Row, Int>.pageNumbers(
            url: url, firstPage: Int.max, body: Counted.self, items: \.rows, transport: transport)
        await #expect(throws: HTTPPageError.invalidPagination("the next page number passes Int.max")) {
            try await numbers.page(for: PageRequest(cursor: nil, side: .refresh, pageSize: 2, clock: ImmediateClock()))
        }
        // At the end of the data the next cursor is not computed: no error.
        let last = try await offsets.page(for: PageRequest(cursor: Int.max - 1, side: .loadMore, pageSize: 5, clock: ImmediateClock()))
        #expect(last.next == nil)
    }

    @Test("offsetLimit and pageNumbers: any cursor, page size, total, first page and status")
    func schemes() async throws {
        var random = SeededRandom(seed: Self.seed ^ 0x5eed)
        let url = URL(string: "http://127.0.0.1:1/items")!
        for index in 0..<Self.inputCount {
            let rows = (0..<Int(random.next() % 4)).map { Row(id: $0) }
            let total = random.next() % 2 == 0 ? Self.integer(&random) : nil
            let status = random.next() % 4 == 0 ? Self.integer(&random) : 200
            let cursor = random.next() % 2 == 0 ? Self.integer(&random) : nil
            let pageSize = Self.integer(&random)
            let firstPage = Self.integer(&random)
            let header = Self.retryAfterText(&random)
            if Self.verbose {
                print("schemes input \(index): rows \(rows.count), total \(String(describing: total)), status \(status), cursor \(String(describing: cursor)), pageSize \(pageSize), firstPage \(firstPage), Retry-After \(header.debugDescription)")
            }
            let body = try JSONEncoder().encode(Counted(rows: rows, total: total))
            let transport = CannedTransport(response: HTTPTransportResponse(
                status: status, headerFields: ["Retry-After": header], body: body))
            let request = PageRequest(cursor: cursor, side: .loadMore, pageSize: pageSize, clock: ImmediateClock())
            let offsets = HTTPPageSource<Row, Int>.offsetLimit(
                url: url, body: Counted.self, items: \.rows, total: \.total, transport: transport)
            let numbers = HTTPPageSource<Row, Int>.pageNumbers(
                url: url, firstPage: firstPage, body: Counted.self, items: \.rows, transport: transport)
            for source in [offsets, numbers] {
                do {
                    let page = try await source.page(for: request)
                    #expect(page.items.count == rows.count)
                } catch let error as HTTPPageError {
                    if case .status(_, _, let retryAfter?) = error {
                        #expect(retryAfter >= .zero && retryAfter <= RetryAfter.longest)
                    }
                } catch {
                    Issue.record("input \(index): an untyped error \(error)")
                }
            }
        }
    }
}

/// SplitMix64: the same seed gives the same inputs on every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
