import Foundation
import Testing
import AsyncPagingHTTP

/// `Link` and `Retry-After` parsing, and which errors are retryable.
@Suite("header parsing")
struct HeaderParsingTests {
    @Test("Link: the next target among several links, quoted or not, any case")
    func linkHeader() {
        let github = #"<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=9>; rel="last""#
        #expect(LinkHeader(github).target(relation: "next") == "https://api.github.com/repositories/1/issues?page=2")
        #expect(LinkHeader(github).target(relation: "last") == "https://api.github.com/repositories/1/issues?page=9")
        #expect(LinkHeader(github).target(relation: "prev") == nil)
        #expect(LinkHeader(#"</items?a=1,2>; title="x, y"; REL=Next"#).target(relation: "next") == "/items?a=1,2")
        #expect(LinkHeader(#"<https://x/2>; rel="prefetch next""#).target(relation: "next") == "https://x/2")
        #expect(LinkHeader("").links.isEmpty)
        #expect(LinkHeader("garbage; rel=next").links.isEmpty)
        #expect(LinkHeader("<unterminated; rel=next").links.isEmpty)
    }

    @Test("Retry-After: seconds and the three HTTP-date forms")
    func retryAfter() {
        let now = Date(timeIntervalSince1970: 784_111_777)          // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:50:37 GMT", now: now) == .seconds(60))
        #expect(RetryAfter.parse("Sun Nov  6 08:51:37 1994", now: now) == .seconds(120))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == .zero)   // in the past
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("1.5", now: now) == nil)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse("", now: now) == nil)
        #expect(RetryAfter.parse(String(repeating: "9", count: 40), now: now) == RetryAfter.longest) // saturates, no trap
        #expect(RetryAfter.parse("9223372036854775807", now: now) == RetryAfter.longest)
        #expect(RetryAfter.parse("NaN", now: now) == nil)
        #expect(RetryAfter.parse("inf", now: now) == nil)
        #expect(RetryAfter.parse("1e9", now: now) == nil)
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: now) == RetryAfter.longest)  // far date: saturates
    }

    @Test("retryable: transport errors, 408, 429, 5xx; not other 4xx, decoding or pagination errors")
    func retryable() {
        for status in [408, 429, 500, 502, 503, 504, 599] {
            #expect(HTTPPageError.status(status, bodyExcerpt: "", retryAfter: nil).isRetryable, "\(status)")
        }
        for status in [300, 400, 401, 403, 404, 409, 422] {
            #expect(!HTTPPageError.status(status, bodyExcerpt: "", retryAfter: nil).isRetryable, "\(status)")
        }
        #expect(HTTPPageError.transport("reset").isRetryable)
        #expect(!HTTPPageError.decoding("bad", bodyExcerpt: "{").isRetryable)
        #expect(!HTTPPageError.invalidPagination("bad link").isRetryable)
        #expect(HTTPPageError.status(429, bodyExcerpt: "", retryAfter: .seconds(3)).retryAfter == .seconds(3))
        #expect(HTTPPageError.transport("reset").retryAfter == nil)
    }
}
