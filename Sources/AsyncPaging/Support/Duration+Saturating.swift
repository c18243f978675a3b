extension Duration {
    /// `self + other`, or the end of `Duration`'s range (about ±1.7 × 10²⁰ seconds) it would
    /// pass: instant arithmetic that never traps.
    @inlinable package func saturatingAdding(_ other: Duration) -> Duration {
        let (sum, overflow) = attoseconds.addingReportingOverflow(other.attoseconds)
        guard overflow else { return Duration(attoseconds: sum) }
        return Duration(attoseconds: other > .zero ? .max : .min)
    }

    /// `self - other`, or the end of `Duration`'s range it would pass.
    @inlinable package func saturatingSubtracting(_ other: Duration) -> Duration {
        let (difference, overflow) = attoseconds.subtractingReportingOverflow(other.attoseconds)
        guard overflow else { return Duration(attoseconds: difference) }
        return Duration(attoseconds: other < .zero ? .max : .min)
    }
}
