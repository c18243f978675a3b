/// JSON: `{"side": "loadMore", "attempt": 2, "errorType": "AsyncPagingHTTP.HTTPPageError",
/// "errorDescription": "HTTP 503"}`.
///
/// The error is encoded by its type name (`String(reflecting: type(of: error))`) and
/// description (`String(describing: error)`); it decodes into a ``DecodedError`` carrying both
/// (an error of a decoded failure is a ``DecodedError`` already, and encodes as the original).
extension FeedFailure: Codable {
    /// Encodes in the JSON shape documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: _FeedCodingKey.self)
        try container.encode(side, forKey: .side)
        try container.encode(attempt, forKey: .attempt)
        if let decoded = error as? DecodedError {
            try container.encode(decoded.typeName, forKey: "errorType")
            try container.encode(decoded.message, forKey: "errorDescription")
        } else {
            try container.encode(String(reflecting: type(of: error)), forKey: "errorType")
            try container.encode(String(describing: error), forKey: "errorDescription")
        }
    }

    /// Decodes the JSON shape documented on this extension; anything else is a `DecodingError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: _FeedCodingKey.self)
        self.init(
            error: DecodedError(
                typeName: try container.decode(String.self, forKey: "errorType"),
                message: try container.decode(String.self, forKey: "errorDescription")),
            side: try container.decode(FeedSide.self, forKey: .side),
            attempt: try container.decode(Int.self, forKey: .attempt))
    }
}
