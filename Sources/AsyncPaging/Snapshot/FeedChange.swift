/// What changed between two versions of a feed's list.
public enum FeedChange: Sendable, Hashable, CustomStringConvertible {
    /// The first, empty list of a new controller.
    case initial
    /// The whole list was replaced (a refresh).
    case replaced
    /// Items were appended at these indices (a load-more); everything before is unchanged.
    case appended(Range<Int>)

    /// The change in a compact form for logs, e.g. `appended(15..<30)`.
    public var description: String {
        switch self {
        case .initial: "initial"
        case .replaced: "replaced"
        case .appended(let range): "appended(\(range.lowerBound)..<\(range.upperBound))"
        }
    }
}
