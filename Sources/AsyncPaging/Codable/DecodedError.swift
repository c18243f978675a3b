/// The error of a ``FeedFailure`` decoded from JSON: the original error's type name and
/// description, since `any Error` itself cannot travel.
///
/// Its ``description`` is the original description, so a decoded failure prints as the
/// original did.
public struct DecodedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The original error's type, module-qualified (`String(reflecting: type(of: error))`),
    /// such as `"AsyncPagingHTTP.HTTPPageError"`.
    public var typeName: String
    /// The original error's `String(describing:)`.
    public var message: String

    /// Creates a decoded error.
    public init(typeName: String, message: String) {
        self.typeName = typeName
        self.message = message
    }

    /// A readable description, for logs.
    public var description: String { message }
}
