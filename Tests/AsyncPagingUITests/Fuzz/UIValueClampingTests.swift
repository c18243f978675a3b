import AsyncPaging
import AsyncPagingUI
import Testing

/// The documented clamping of bad numbers that the fuzz tests found trapping or out of range.
@Suite("UI value types clamp bad numbers")
struct UIValueClampingTests {
    @Test("a zero, negative or NaN threshold counts as 0: any pull triggers", arguments: [0, -0.0, -60, .nan])
    func thresholdCountsAsZero(threshold: Double) {
        var gesture = PullGesture.header(threshold: threshold)
        #expect(gesture.threshold == 0)
        gesture.pull(by: 0)
        #expect(gesture.state == .stopped)
        #expect(gesture.progress == 0)
        gesture.pull(by: 0.5)
        #expect(gesture.state == .triggered)
        #expect(gesture.progress == 1)
        #expect(gesture.release() == .refresh)
    }

    @Test("an infinite threshold never triggers")
    func infiniteThresholdNeverTriggers() {
        var gesture = PullGesture.footer(threshold: .infinity)
        for distance in [1, 1e308, .infinity] {
            gesture.pull(by: distance)
            #expect(gesture.progress == 0)
            #expect(gesture.state == .stopped)
        }
    }

    @Test("a geometry whose distances overflow is not measurable")
    func overflowingGeometryIsNotMeasurable() {
        let geometry = FeedScrollGeometry(
            contentOffset: -.greatestFiniteMagnitude, contentHeight: .greatestFiniteMagnitude, viewportHeight: 600)
        #expect(!geometry.isMeasurable)
        #expect(geometry.distanceToBottom == nil)
        #expect(!geometry.isAtBottom(within: 100))
        #expect(geometry.overscrollAtTop == 0)
        #expect(geometry.overscrollAtBottom == 0)
        #expect(!PrefetchTrigger(bottomDistance: 100).isNearEnd(geometry))
    }
}
