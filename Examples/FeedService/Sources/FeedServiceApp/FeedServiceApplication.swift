import AsyncPaging
import Hummingbird
import PostgresNIO

/// The service's application, used by the executable and the tests: the routes over a new
/// set of sessions, listening on `options.host:options.port`. `onServerRunning` gets the
/// bound port (useful with port 0).
///
/// With `--store postgres://…`, the PostgreSQL client runs as a service in the application's
/// service group (swift-service-lifecycle: started with it, shut down after the server on
/// SIGTERM/SIGINT), and the schema is migrated before the server accepts requests.
public func buildApplication(
    options: ServiceOptions,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    var storeLogger = Logger(label: "FeedService.store")
    storeLogger.logLevel = .warning
    let store: (any SharedFeedSessionStore)?
    var postgres: PostgresSessionStore?
    switch options.store {
    case nil:
        store = nil
    case .memory:
        store = InProcessSessionStore()
    case .postgres(let location):
        let database = PostgresSessionStore(
            location: location, maximumConnections: options.storeConnections, logger: storeLogger)
        postgres = database
        store = database
    }
    let sessions = try makeSessions(options: options, store: store)
    var app = Application(
        router: buildRouter(sessions: sessions, heartbeat: options.heartbeat),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "FeedService"),
        services: postgres.map { [$0.client] } ?? [],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? options.port) })
    if let postgres {
        app.beforeServerStarts { try await postgres.migrate() }
    }
    return app
}
