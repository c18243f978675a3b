/// JSON: `"closed"`, `"nothingToRetry"`, `"refreshInFlight"` or `"firstPageLoading"`.
extension IgnoreReason: Codable {
    static let _names: [(IgnoreReason, String)] = [
        (.closed, "closed"), (.nothingToRetry, "nothingToRetry"),
        (.refreshInFlight, "refreshInFlight"), (.firstPageLoading, "firstPageLoading"),
    ]

    public func encode(to encoder: any Encoder) throws { try _NamedCases.encode(self, names: Self._names, to: encoder) }
    public init(from decoder: any Decoder) throws { self = try _NamedCases.decode(Self._names, from: decoder) }
}
