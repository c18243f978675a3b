/// JSON: `"closed"`, `"nothingToRetry"`, `"refreshInFlight"` or `"firstPageLoading"`.
extension IgnoreReason: Codable {
    static let _names: [(IgnoreReason, String)] = [
        (.closed, "closed"), (.nothingToRetry, "nothingToRetry"),
        (.refreshInFlight, "refreshInFlight"), (.firstPageLoading, "firstPageLoading"),
    ]

    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws { try _NamedCases.encode(self, names: Self._names, to: encoder) }
    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws { self = try _NamedCases.decode(Self._names, from: decoder) }
}
