import AsyncPagingUI
import Testing

@Suite("Reached bottom: scroll geometry")
struct FeedScrollGeometryTests {
    /// 2,000 points of rows in a 800-point viewport, no insets: the bottom rests at 1,200.
    func long(offset: Double, top: Double = 0, bottom: Double = 0) -> FeedScrollGeometry {
        FeedScrollGeometry(
            contentOffset: offset, contentHeight: 2_000, viewportHeight: 800, topInset: top, bottomInset: bottom)
    }

    @Test func atRestAtTheTopTheWholeScrollRangeRemains() {
        let geometry = long(offset: 0)
        #expect(geometry.distanceToBottom == 1_200)
        #expect(!geometry.isAtBottom())
        #expect(geometry.overscrollAtTop == 0)
        #expect(geometry.overscrollAtBottom == 0)
    }

    @Test func exactlyAtTheBottomIsAtTheBottom() {
        #expect(long(offset: 1_200).distanceToBottom == 0)
        #expect(long(offset: 1_200).isAtBottom())
        #expect(!long(offset: 1_199).isAtBottom())
    }

    @Test func theDistanceBeforeTheBottomCountsAsTheBottom() {
        #expect(long(offset: 1_100).isAtBottom(within: 100))
        #expect(!long(offset: 1_099).isAtBottom(within: 100))
    }

    @Test func pastTheBottomTheDistanceIsNegativeAndTheOverscrollIsReported() {
        let geometry = long(offset: 1_260)
        #expect(geometry.distanceToBottom == -60)
        #expect(geometry.isAtBottom())
        #expect(geometry.overscrollAtBottom == 60)
        #expect(geometry.overscrollAtTop == 0)
    }

    @Test func insetsMoveBothRestingPositions() {
        // The top rests at -100; the bottom at 2,000 + 50 - 800 = 1,250.
        let atTop = long(offset: -100, top: 100, bottom: 50)
        #expect(atTop.distanceToBottom == 1_350)
        #expect(atTop.overscrollAtTop == 0)
        #expect(long(offset: 1_250, top: 100, bottom: 50).distanceToBottom == 0)
        #expect(!long(offset: 1_200, top: 100, bottom: 50).isAtBottom())
        #expect(long(offset: -130, top: 100, bottom: 50).overscrollAtTop == 30)
    }

    @Test func rubberBandingAboveTheTopMovesAwayFromTheBottom() {
        let geometry = long(offset: -80)
        #expect(geometry.distanceToBottom == 1_280)
        #expect(geometry.overscrollAtTop == 80)
        #expect(!geometry.isAtBottom(within: 1_000))
    }

    @Test func contentShorterThanTheViewportIsAtTheBottomAtRest() {
        let short = FeedScrollGeometry(
            contentOffset: -100, contentHeight: 300, viewportHeight: 800, topInset: 100, bottomInset: 50)
        #expect(short.distanceToBottom == 0)
        #expect(short.isAtBottom())
        #expect(short.overscrollAtBottom == 0)
    }

    @Test func contentShorterThanTheViewportPulledDownLeavesTheBottom() {
        let pulled = FeedScrollGeometry(contentOffset: -40, contentHeight: 300, viewportHeight: 800)
        #expect(pulled.distanceToBottom == 40)
        #expect(!pulled.isAtBottom())
        #expect(pulled.isAtBottom(within: 40))
        #expect(pulled.overscrollAtTop == 40)
    }

    @Test func contentShorterThanTheViewportPushedUpIsPastTheBottom() {
        let pushed = FeedScrollGeometry(contentOffset: 25, contentHeight: 300, viewportHeight: 800)
        #expect(pushed.distanceToBottom == -25)
        #expect(pushed.overscrollAtBottom == 25)
    }

    @Test func anEmptyListIsAtItsBottom() {
        let empty = FeedScrollGeometry(contentOffset: 0, contentHeight: 0, viewportHeight: 800)
        #expect(empty.isMeasurable)
        #expect(empty.isAtBottom())
    }

    @Test func aNegativeContentHeightCountsAsZero() {
        let negative = FeedScrollGeometry(contentOffset: 0, contentHeight: -500, viewportHeight: 800)
        #expect(negative.distanceToBottom == 0)
    }

    @Test(arguments: [0.0, -1.0])
    func aViewportWithoutHeightIsNotMeasurable(height: Double) {
        let unlaidOut = FeedScrollGeometry(contentOffset: 0, contentHeight: 0, viewportHeight: height)
        #expect(!unlaidOut.isMeasurable)
        #expect(unlaidOut.distanceToBottom == nil)
        #expect(!unlaidOut.isAtBottom(within: .infinity))
    }

    static let nonFinite: [Double] = [.nan, .infinity, -.infinity]

    @Test(arguments: nonFinite, 0..<5)
    func nonFiniteValuesAreRejected(value: Double, field: Int) {
        var geometry = long(offset: -90, top: 0, bottom: 0)
        switch field {
        case 0: geometry.contentOffset = value
        case 1: geometry.contentHeight = value
        case 2: geometry.viewportHeight = value
        case 3: geometry.topInset = value
        default: geometry.bottomInset = value
        }
        #expect(!geometry.isMeasurable)
        #expect(geometry.distanceToBottom == nil)
        #expect(!geometry.isAtBottom(within: .infinity))
        #expect(geometry.overscrollAtTop == 0)
        #expect(geometry.overscrollAtBottom == 0)
    }

    @Test(arguments: [Double.nan, -50])
    func aNegativeOrNaNDistanceCountsAsZero(distance: Double) {
        #expect(long(offset: 1_200).isAtBottom(within: distance))
        #expect(!long(offset: 1_190).isAtBottom(within: distance))
    }

    @Test func anInfiniteDistanceIsAlwaysAtTheBottom() {
        #expect(long(offset: 0).isAtBottom(within: .infinity))
    }
}
