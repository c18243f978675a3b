import AsyncPaging
import Hummingbird

/// The service's application, used by the executable and the tests: the routes over a new
/// session registry, listening on `options.host:options.port`. `onServerRunning` gets the
/// bound port (useful with port 0).
public func buildApplication(
    options: ServiceOptions,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let sessions = try makeSessions(options: options)
    return Application(
        router: buildRouter(sessions: sessions),
        configuration: .init(address: .hostname(options.host, port: options.port), serverName: "FeedService"),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? options.port) })
}
