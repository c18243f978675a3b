extension Duration {
    /// A short human text: `40ms`, `1.5s`, `0s`.
    var shortText: String {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1_000 { return milliseconds == 0 ? "0s" : "\(milliseconds)ms" }
        if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000)s" }
        let tenths = (milliseconds + 50) / 100
        return "\(tenths / 10).\(tenths % 10)s"
    }
}
