/// JSON: `"closed"`, `"nothingToRetry"`, `"refreshInFlight"`, `"firstPageLoading"`,
/// `"noFirstPage"` or `"stoppedByGuard"`.
extension IgnoreReason: Codable {
    /// Every case with its name; built from the exhaustive switch below, so that a new case
    /// cannot be left without a name (a table once missed two, which then failed to encode).
    static let _names: [(IgnoreReason, String)] = allCases.map { ($0, $0._codingName) }

    var _codingName: String {
        switch self {
        case .closed: "closed"
        case .nothingToRetry: "nothingToRetry"
        case .refreshInFlight: "refreshInFlight"
        case .firstPageLoading: "firstPageLoading"
        case .noFirstPage: "noFirstPage"
        case .stoppedByGuard: "stoppedByGuard"
        }
    }

    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws { try _NamedCases.encode(self, names: Self._names, to: encoder) }
    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws { self = try _NamedCases.decode(Self._names, from: decoder) }
}
