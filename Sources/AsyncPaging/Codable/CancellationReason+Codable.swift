/// JSON: `"preemptedByRefresh"`, `"preemptedByLoadMore"`, `"supersededByNewerRequest"` or
/// `"closed"`.
extension CancellationReason: Codable {
    static let _names: [(CancellationReason, String)] = [
        (.preemptedByRefresh, "preemptedByRefresh"), (.preemptedByLoadMore, "preemptedByLoadMore"),
        (.supersededByNewerRequest, "supersededByNewerRequest"), (.closed, "closed"),
    ]

    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws { try _NamedCases.encode(self, names: Self._names, to: encoder) }
    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws { self = try _NamedCases.decode(Self._names, from: decoder) }
}
