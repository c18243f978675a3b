/// JSON: `"preemptedByRefresh"`, `"preemptedByLoadMore"`, `"preemptedByLoadPrevious"`,
/// `"supersededByNewerRequest"`, `"closed"` or `"pagesDropped"`.
extension CancellationReason: Codable {
    /// Every case with its name, from the exhaustive switch below (no case can go unnamed).
    static let _names: [(CancellationReason, String)] = allCases.map { ($0, $0._codingName) }

    var _codingName: String {
        switch self {
        case .preemptedByRefresh: "preemptedByRefresh"
        case .preemptedByLoadMore: "preemptedByLoadMore"
        case .preemptedByLoadPrevious: "preemptedByLoadPrevious"
        case .supersededByNewerRequest: "supersededByNewerRequest"
        case .closed: "closed"
        case .pagesDropped: "pagesDropped"
        }
    }

    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws { try _NamedCases.encode(self, names: Self._names, to: encoder) }
    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws { self = try _NamedCases.decode(Self._names, from: decoder) }
}
