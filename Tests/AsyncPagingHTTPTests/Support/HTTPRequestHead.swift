import Foundation

/// The head of one HTTP/1.1 request, as ``LoopbackHTTPServer`` reads it: the request line's
/// method and target, the target's path and query, and the two headers the server acts on
/// (`Content-Length`, whose body it skips, and `Connection: close`).
struct HTTPRequestHead: Equatable {
    var method: String
    /// The request target as sent, such as `/cursor?key=a&cursor=40&limit=5`.
    var target: String
    var contentLength: Int
    /// The client asked to close the connection after the answer (or spoke HTTP/1.0).
    var closesConnection: Bool

    /// The target's path, without its query.
    var path: Substring {
        target.firstIndex(of: "?").map { target[..<$0] } ?? target[...]
    }

    /// The target's query parameters (the last value of a repeated one), percent-decoded.
    var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var parameters: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            parameters[name] = value
        }
        return parameters
    }

    /// Parses `bytes`, a request head without its closing empty line (the lines are separated
    /// by CRLF); nil when the request line is not `METHOD TARGET HTTP/1.x` or `Content-Length`
    /// is not a number.
    init?(_ bytes: ArraySlice<UInt8>) {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)[...]
        guard let requestLine = lines.popFirst() else { return nil }
        let parts = requestLine.split(separator: " ")
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        method = String(parts[0])
        target = String(parts[1])
        contentLength = 0
        closesConnection = parts[2] == "HTTP/1.0"
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "content-length":
                guard let length = Int(value), length >= 0 else { return nil }
                contentLength = length
            case "connection":
                closesConnection = value.lowercased() == "close"
            default:
                break
            }
        }
    }
}
