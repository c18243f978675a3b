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
    /// The HTTP client of `--upstream` (`--upstream-client`): AsyncHTTPClient unless asked.
    public var upstreamClient: UpstreamClient = .asyncHTTPClient
    /// Items of the fake API.
    public var totalItems = 100
    /// Latency of each fake page.
    public var latency: Duration = .zero
    /// Page size of every session.
    public var pageSize = 20
    /// Sessions unused this long are closed.
    public var idleTimeout: Duration = .seconds(300)
    /// At most this many sessions open on this instance; the least recently used leaves first
    /// (with a store, it stays saved and is restored on its next request).
    public var maximumSessions = 10_000
    /// Where sessions are saved (`--store`); nil: in this instance's memory only.
    public var store: StoreLocation?
    /// How many connections to the store's database an instance may open (each request on a
    /// session holds one while it runs, for the session's row lock).
    public var storeConnections = 20
    /// Time between heartbeats on an idle event stream.
    public var heartbeat: Duration = .seconds(5)

    public init() {}

    /// Parses `--host H --port P --upstream URL --upstream-client async-http-client|urlsession --items N --latency-ms N --page-size N
    /// --idle-seconds N --max-sessions N --store postgres://…|memory --store-connections N
    /// --heartbeat-seconds N`.
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
            case "--upstream-client":
                let text = try value(flag)
                guard let client = UpstreamClient(rawValue: text) else { throw .invalidValue(flag, text) }
                upstreamClient = client
            case "--items": totalItems = try number(flag)
            case "--latency-ms": latency = .milliseconds(try number(flag))
            case "--page-size": pageSize = max(1, try number(flag))
            case "--idle-seconds": idleTimeout = .seconds(max(1, try number(flag)))
            case "--max-sessions": maximumSessions = max(1, try number(flag))
            case "--store":
                let text = try value(flag)
                guard let location = StoreLocation(text) else { throw .invalidValue(flag, text) }
                store = location
            case "--store-connections": storeConnections = max(1, try number(flag))
            case "--heartbeat-seconds": heartbeat = .seconds(max(1, try number(flag)))
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

/// Where `--store` keeps sessions.
public enum StoreLocation: Sendable, Equatable {
    /// `memory`: in this process (sessions outlive their controllers, not the process).
    case memory
    /// `postgres://user[:password]@host[:port]/database`: a PostgreSQL database, shared by every
    /// instance given the same URL (see ``PostgresSessionStore``).
    case postgres(PostgresLocation)

    /// Parses `memory` or a `postgres://` (or `postgresql://`) URL; nil for anything else.
    public init?(_ text: String) {
        if text == "memory" {
            self = .memory
        } else if let location = PostgresLocation(url: text) {
            self = .postgres(location)
        } else {
            return nil
        }
    }
}

/// A PostgreSQL database named by a URL: `postgres://user[:password]@host[:port]/database`,
/// optionally `?sslmode=disable|prefer|require` (default: `disable`, for loopback).
public struct PostgresLocation: Sendable, Equatable {
    /// How to use TLS.
    public enum TLSMode: String, Sendable {
        case disable, prefer, require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode

    /// Parses the URL; nil when it is not a `postgres://` URL with a user, a host and a database.
    public init?(url text: String) {
        guard let components = URLComponents(string: text),
              components.scheme == "postgres" || components.scheme == "postgresql",
              let host = components.host, !host.isEmpty,
              let username = components.user, !username.isEmpty
        else { return nil }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else { return nil }
        var tls = TLSMode.disable
        if let mode = components.queryItems?.first(where: { $0.name == "sslmode" })?.value {
            guard let parsed = TLSMode(rawValue: mode) else { return nil }
            tls = parsed
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password
        self.database = database
        self.tls = tls
    }
}
