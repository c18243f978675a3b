/// The vertical geometry of a scrolling list, in points: enough to tell whether the list is
/// scrolled to its bottom, and how far it is pulled past either end.
///
/// The values are the ones UIKit and SwiftUI report, unchanged:
///
/// | property | UIKit (`UIScrollView`) | SwiftUI (`ScrollGeometry`) |
/// | --- | --- | --- |
/// | ``contentOffset`` | `contentOffset.y` | `contentOffset.y` |
/// | ``contentHeight`` | `contentSize.height` | `contentSize.height` |
/// | ``viewportHeight`` | `bounds.height` | `containerSize.height` |
/// | ``topInset`` | `adjustedContentInset.top` | `contentInsets.top` |
/// | ``bottomInset`` | `adjustedContentInset.bottom` | `contentInsets.bottom` |
///
/// At rest at the top, the offset is `-topInset`; at rest at the bottom it is
/// `contentHeight + bottomInset - viewportHeight`.
///
/// ## Edge cases
/// - **Content shorter than the viewport:** the list cannot scroll, so its resting position at
///   the top is also its bottom: ``distanceToBottom`` is 0 there and the list counts as at the
///   bottom. Its last row is on screen, so loading more to fill the screen is right.
/// - **Rubber-banding:** an offset above the top (pulling down) makes ``distanceToBottom``
///   larger; an offset past the bottom makes it negative (and ``overscrollAtBottom`` positive).
/// - **Insets** shrink the visible area; negative insets are taken as given.
/// - **Zero sizes:** a viewport of zero (or negative) height has not been laid out yet: the
///   geometry is not measurable. Zero content height is an empty list, whose end is visible.
///   A negative content height is taken as 0.
/// - **NaN and infinite values are rejected:** if any value is not finite, the geometry is not
///   measurable: ``distanceToBottom`` is `nil`, ``isAtBottom(within:)`` is `false` and both
///   overscrolls are 0. So is a geometry whose values are so large (near
///   `Double.greatestFiniteMagnitude`) that the distances computed from them overflow. A
///   geometry that cannot be measured never triggers a load.
public struct FeedScrollGeometry: Sendable, Hashable {
    /// The vertical offset of the visible area's top edge from the content's top edge.
    public var contentOffset: Double
    /// The height of the content: every row, header and footer.
    public var contentHeight: Double
    /// The height of the scroll view itself, insets included.
    public var viewportHeight: Double
    /// The inset above the content (safe area, navigation bar, a refresh header).
    public var topInset: Double
    /// The inset below the content (safe area, tab bar, a loading footer).
    public var bottomInset: Double

    /// Creates a geometry from the values a scroll view reports; see the table above.
    public init(
        contentOffset: Double,
        contentHeight: Double,
        viewportHeight: Double,
        topInset: Double = 0,
        bottomInset: Double = 0
    ) {
        self.contentOffset = contentOffset
        self.contentHeight = contentHeight
        self.viewportHeight = viewportHeight
        self.topInset = topInset
        self.bottomInset = bottomInset
    }

    /// Whether every value is finite, the viewport has a height, and the distances computed
    /// from them do not overflow, so the other answers mean something.
    public var isMeasurable: Bool { measured != nil }

    /// How far the list can still scroll down before it rests at its bottom: positive above the
    /// bottom, 0 at it, negative when pulled past it. `nil` when the geometry is not measurable.
    public var distanceToBottom: Double? { measured?.toBottom }

    /// The distance to the bottom and the pull past the top, when every value and every
    /// result is finite.
    private var measured: (toBottom: Double, pastTop: Double)? {
        guard contentOffset.isFinite, contentHeight.isFinite, viewportHeight.isFinite,
              topInset.isFinite, bottomInset.isFinite, viewportHeight > 0
        else { return nil }
        let bottomOffset = max(contentHeight, 0) + bottomInset - viewportHeight
        let restingBottom = max(bottomOffset, -topInset)
        let toBottom = restingBottom - contentOffset
        let pastTop = -(contentOffset + topInset)
        guard bottomOffset.isFinite, toBottom.isFinite, pastTop.isFinite else { return nil }
        return (toBottom, pastTop)
    }

    /// Whether the list is scrolled to within `distance` points of its bottom, or past it.
    ///
    /// A negative or NaN `distance` counts as 0. Always `false` for a geometry that is not
    /// measurable.
    public func isAtBottom(within distance: Double = 0) -> Bool {
        guard let remaining = distanceToBottom else { return false }
        let allowance = distance.isNaN ? 0 : max(distance, 0)
        return remaining <= allowance
    }

    /// How far the list is scrolled down from its top resting position: positive below the
    /// top, 0 at it, negative when pulled down past it. `nil` when the geometry is not
    /// measurable.
    public var distanceToTop: Double? { measured.map { -$0.pastTop } }

    /// Whether the list is scrolled to within `distance` points of its top, or past it: where
    /// a list that grows at its start loads the page before its first.
    ///
    /// A negative or NaN `distance` counts as 0. Always `false` for a geometry that is not
    /// measurable.
    public func isAtTop(within distance: Double = 0) -> Bool {
        guard let remaining = distanceToTop else { return false }
        let allowance = distance.isNaN ? 0 : max(distance, 0)
        return remaining <= allowance
    }

    /// How far the list is pulled down past its top resting position, for a header pull
    /// gesture; 0 when it is not, or when the geometry is not measurable.
    public var overscrollAtTop: Double {
        guard let pastTop = measured?.pastTop else { return 0 }
        return max(0, pastTop)
    }

    /// How far the list is pushed up past its bottom resting position, for a footer pull
    /// gesture; 0 when it is not, or when the geometry is not measurable.
    public var overscrollAtBottom: Double {
        guard let remaining = distanceToBottom else { return 0 }
        return max(0, -remaining)
    }
}
