import Foundation

/// How the service runs: where it listens, where pages come from, its session limits.
public struct ServiceOptions: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (printed on start).
    public var port = 8080
    /// An upstream API paginated by a cursor in its JSON body
    /// (`{"data": [{"id", "title"}], "next_cursor": "…"}`); nil: the in-process fake API.
    public var upstream: URL?
    /// Items of the fake API.
    public var totalItems = 100
    /// Latency of each fake page.
    public var latency: Duration = .zero
    /// Page size of every session.
    public var pageSize = 20
    /// Sessions unused this long are closed.
    public var idleTimeout: Duration = .seconds(300)
    /// At most this many sessions; the least recently used leaves first.
    public var maximumSessions = 10_000

    public init() {}

    /// Parses `--host H --port P --upstream URL --items N --latency-ms N --page-size N
    /// --idle-seconds N --max-sessions N`.
    public init(arguments: [String]) throws(OptionsError) {
        var iterator = arguments.makeIterator()
        func value(_ flag: String) throws(OptionsError) -> String {
            guard let value = iterator.next() else { throw .missingValue(flag) }
            return value
        }
        func number(_ flag: String) throws(OptionsError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number >= 0 else { throw .invalidValue(flag, text) }
            return number
        }
        while let flag = iterator.next() {
            switch flag {
            case "--host": host = try value(flag)
            case "--port": port = try number(flag)
            case "--upstream":
                let text = try value(flag)
                guard let url = URL(string: text), url.scheme != nil else { throw .invalidValue(flag, text) }
                upstream = url
            case "--items": totalItems = try number(flag)
            case "--latency-ms": latency = .milliseconds(try number(flag))
            case "--page-size": pageSize = max(1, try number(flag))
            case "--idle-seconds": idleTimeout = .seconds(max(1, try number(flag)))
            case "--max-sessions": maximumSessions = max(1, try number(flag))
            default: throw .unknownFlag(flag)
            }
        }
    }
}

/// A command line the service does not understand.
public enum OptionsError: Error, CustomStringConvertible {
    case unknownFlag(String)
    case missingValue(String)
    case invalidValue(String, String)

    public var description: String {
        switch self {
        case .unknownFlag(let flag): "unknown flag \(flag)"
        case .missingValue(let flag): "\(flag) needs a value"
        case .invalidValue(let flag, let value): "invalid value for \(flag): \(value)"
        }
    }
}
