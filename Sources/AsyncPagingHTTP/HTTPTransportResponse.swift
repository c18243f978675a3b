import Foundation

/// A whole HTTP response: status, header fields and body.
public struct HTTPTransportResponse: Sendable, Hashable {
    /// The status code, such as 200.
    public var status: Int
    /// The header fields, by lowercased name. Use ``value(forHeader:)`` to look one up.
    public private(set) var headerFields: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response. Header names are matched without regard to case; when a name is
    /// given twice, the values are joined with `", "` as RFC 9110 allows for list fields.
    public init(status: Int, headerFields: [String: String] = [:], body: Data = Data()) {
        self.status = status
        var fields: [String: String] = [:]
        for (name, value) in headerFields {
            let key = name.lowercased()
            if let existing = fields[key] { fields[key] = existing + ", " + value } else { fields[key] = value }
        }
        self.headerFields = fields
        self.body = body
    }

    /// The value of header `name` (any case), or nil.
    public func value(forHeader name: String) -> String? { headerFields[name.lowercased()] }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
