// Sums that stop at Int's ends instead of trapping, for positions built from numbers a caller
// reports (``FeedController/reportVisibleRows(_:prefetchDistance:)``).
extension Int {
    @inlinable func _saturatingAdd(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    @inlinable func _saturatingSubtract(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other > 0 ? .min : .max) : difference
    }
}
