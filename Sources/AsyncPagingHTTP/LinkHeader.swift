import Foundation

/// The `Link` header field (RFC 8288), as GitHub's API uses it for pagination:
/// `<https://api.example.com/items?page=2>; rel="next", <…?page=9>; rel="last"`.
public struct LinkHeader: Sendable, Hashable {
    /// One link: its target and its parameters (names lowercased, values unquoted).
    public struct Link: Sendable, Hashable {
        /// The target as written between `<` and `>`.
        public var target: String
        /// The parameters, such as `["rel": "next"]`.
        public var parameters: [String: String]

        /// The relation types of `rel`, lowercased (a `rel` may list several, space-separated).
        public var relations: [String] {
            (parameters["rel"] ?? "").lowercased().split(separator: " ").map(String.init)
        }
    }

    /// The links, in order.
    public var links: [Link]

    /// Parses a header value. Malformed parts are skipped, never trapped on: a value without
    /// any `<…>` gives no links.
    public init(_ value: String) {
        var links: [Link] = []
        var scalars = Substring(value)[...]
        while let open = scalars.firstIndex(of: "<") {
            scalars = scalars[scalars.index(after: open)...]
            guard let close = scalars.firstIndex(of: ">") else { break }
            let target = String(scalars[..<close]).trimmingCharacters(in: .whitespaces)
            scalars = scalars[scalars.index(after: close)...]
            // Parameters run to the next comma outside a quoted string.
            var parameters: [String: String] = [:]
            var inQuotes = false
            var end = scalars.endIndex
            for index in scalars.indices {
                let character = scalars[index]
                if character == "\"" { inQuotes.toggle() }
                if character == "," && !inQuotes { end = index; break }
            }
            for part in scalars[..<end].split(separator: ";") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard pieces.count == 2 else { continue }
                let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
                var parameterValue = pieces[1].trimmingCharacters(in: .whitespaces)
                if parameterValue.count >= 2, parameterValue.hasPrefix("\""), parameterValue.hasSuffix("\"") {
                    parameterValue = String(parameterValue.dropFirst().dropLast())
                }
                if parameters[name] == nil { parameters[name] = parameterValue }
            }
            links.append(Link(target: target, parameters: parameters))
            scalars = end < scalars.endIndex ? scalars[scalars.index(after: end)...] : scalars[end...]
        }
        self.links = links
    }

    /// The target of the first link whose `rel` includes `relation` (case-insensitive).
    public func target(relation: String) -> String? {
        let wanted = relation.lowercased()
        return links.first { $0.relations.contains(wanted) }?.target
    }
}
