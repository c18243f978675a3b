import AsyncPaging
import AsyncPagingUI
import Testing

@Suite("Status binding: events to commands")
struct RefreshCommandMapperTests {
    static let offline = FeedFailure(error: Offline(), side: .loadMore, attempt: 1)

    /// The commands for `events`, one list per event.
    func map(_ events: [FeedEvent], from mapper: RefreshCommandMapper = RefreshCommandMapper()) -> [[RefreshCommand]] {
        var mapper = mapper
        return events.map { mapper.commands(for: $0) }
    }

    @Test func aRefreshBeginsAndEndsTheHeader() {
        #expect(map([.began(.refresh), .ended(.refresh, .completed)]) == [[.beginHeaderRefresh], [.endHeaderRefresh]])
    }

    @Test func aLoadMoreBeginsAndEndsTheFooter() {
        #expect(map([.began(.loadMore), .ended(.loadMore, .completed)]) == [[.beginFooterRefresh], [.endFooterRefresh]])
    }

    @Test func everyEndReasonEndsItsSide() {
        let reasons: [FeedEndReason] = [
            .completed, .endOfData, .cancelled(.preemptedByLoadMore), .cancelled(.closed), .failed(Self.offline),
        ]
        for reason in reasons {
            #expect(map([.ended(.refresh, reason)]).first?.first == .endHeaderRefresh)
            #expect(map([.ended(.loadMore, reason)]).first?.first == .endFooterRefresh)
        }
    }

    @Test func theLastPageShowsNoMoreDataAfterTheEnd() {
        #expect(map([.began(.loadMore), .ended(.loadMore, .endOfData)])
            == [[.beginFooterRefresh], [.endFooterRefresh, .noMoreData]])
        #expect(map([.began(.refresh), .ended(.refresh, .endOfData)])
            == [[.beginHeaderRefresh], [.endHeaderRefresh, .noMoreData]])
    }

    @Test func aRefreshWithMoreDataResetsNoMoreDataOnce() {
        let commands = map([
            .began(.loadMore), .ended(.loadMore, .endOfData),
            .began(.refresh), .ended(.refresh, .completed),
            .began(.refresh), .ended(.refresh, .completed),
        ])
        #expect(commands == [
            [.beginFooterRefresh], [.endFooterRefresh, .noMoreData],
            [.beginHeaderRefresh], [.endHeaderRefresh, .resetNoMoreData],
            [.beginHeaderRefresh], [.endHeaderRefresh],
        ])
    }

    @Test func noMoreDataIsSentOnlyWhenItChanges() {
        let commands = map([
            .ended(.refresh, .endOfData), .ended(.refresh, .endOfData),
        ])
        #expect(commands == [[.endHeaderRefresh, .noMoreData], [.endHeaderRefresh]])
    }

    @Test func aFailedOrCancelledRefreshKeepsNoMoreData() {
        let showing = RefreshCommandMapper(showsNoMoreData: true)
        let failure = FeedFailure(error: Offline(), side: .refresh, attempt: 1)
        #expect(map([.ended(.refresh, .failed(failure)), .ended(.refresh, .cancelled(.preemptedByLoadMore))], from: showing)
            == [[.endHeaderRefresh], [.endHeaderRefresh]])
    }

    @Test(arguments: [FeedError.emptyPageClaimsMore, .repeatedCursor("3")])
    func aFailedPageThatClaimsMoreDataResetsNoMoreData(error: FeedError) {
        let failure = FeedFailure(error: error, side: .refresh, attempt: 1)
        #expect(map([.ended(.refresh, .failed(failure))], from: RefreshCommandMapper(showsNoMoreData: true))
            == [[.endHeaderRefresh, .resetNoMoreData]])
    }

    @Test func aLoadMoreThatBeginsResetsAStaleNoMoreData() {
        #expect(map([.began(.loadMore)], from: RefreshCommandMapper(showsNoMoreData: true))
            == [[.resetNoMoreData, .beginFooterRefresh]])
    }

    @Test func startingAtTheEndOfTheDataShowsNoMoreData() {
        var atEnd = RefreshCommandMapper()
        #expect(atEnd.start(status: .endOfData) == [.noMoreData])
        #expect(atEnd.showsNoMoreData)
        var idle = RefreshCommandMapper()
        #expect(idle.start(status: .idle).isEmpty)
        #expect(!idle.showsNoMoreData)
    }
}
