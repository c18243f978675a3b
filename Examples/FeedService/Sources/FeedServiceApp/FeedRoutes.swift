import AsyncPaging
import Foundation
import Hummingbird

/// The routes of the service over `sessions`:
///
/// | route | what it does |
/// | --- | --- |
/// | `GET /sessions/:session/items?from=N` | waits for the first page, then the list from index N (``ItemsResponse``); 502 with the error when the first page failed |
/// | `POST /sessions/:session/more` | loads the next page (``CommandResponse``); a new session's first page first, whose failure is then the answer |
/// | `POST /sessions/:session/refresh` | reloads the first page |
/// | `POST /sessions/:session/retry` | retries a failed load |
/// | `GET /sessions/:session/events` | the events of the session's controller on this instance, as server-sent events |
/// | `DELETE /sessions/:session` | ends the session (204, or 404 if there was none) |
/// | `GET /stats` | sessions and event streams (``StatsResponse``) |
///
/// Every answer is JSON with sorted keys (``FeedRequestContext``). A session id that is not a
/// ``SessionID`` answers 400, a method a path does not take 405 (with `Allow`), a load that
/// failed upstream 502, 503 or 504 (``UpstreamFailureStatus``) with the usual body. Errors
/// have the body of ``ServiceError``.
///
/// - Parameters:
///   - sessions: The sessions.
///   - heartbeat: Time between heartbeats on an idle event stream; a client that hung up is
///     released within two of them (``writeServerSentEvents(_:heartbeat:clock:write:)``).
///   - heartbeatClock: The clock of the heartbeats.
public func buildRouter(
    sessions: FeedSessions,
    heartbeat: Duration = .seconds(5),
    heartbeatClock: any Clock<Duration> = ContinuousClock()
) -> Router<FeedRequestContext> {
    let router = Router(context: FeedRequestContext.self)
    router.get("/health") { _, _ in "ok" }
    router.get("/stats") { _, _ in
        StatsResponse(
            sessions: await sessions.openCount, eventStreams: sessions.openEventStreams,
            savedSessions: try await sessions.savedCount())
    }
    router.refuseOtherMethods("/health", "/stats", allowing: [.get])

    let session = router.group("sessions/:session")
    session.get("items") { request, context in
        let id = try sessionID(context)
        let requested = request.uri.queryParameters.get("from", as: Int.self) ?? 0
        let (answer, failure) = try await sessions.withSession(id) { feed in
            let first = await feed.waitForFirstPage()
            let snapshot = feed.currentSnapshot
            let from = min(max(0, requested), snapshot.count)
            let answer = ItemsResponse(
                version: snapshot.version, generation: snapshot.generation, count: snapshot.count, from: from,
                items: Array(snapshot[from...]), status: feed.currentStatus, nextCursor: await feed.cursors.next)
            // A failed first page is an upstream failure; a list that is there is an answer.
            return (answer, snapshot.version == 0 ? UpstreamFailureStatus(first.outcome) : nil)
        }
        return EditedResponse(status: failure?.status ?? .ok, headers: failure?.headers ?? [:], response: answer)
    }
    session.post("more") { _, context in
        try await command(sessions, context) { feed in
            // A new session's first load-more waits for its first page rather than being ignored.
            if feed.currentSnapshot.version == 0 {
                let first = await feed.waitForFirstPage()
                if case .failed = first.outcome { return first }
            }
            return await feed.loadMore()
        }
    }
    session.post("refresh") { _, context in
        try await command(sessions, context) { await $0.refresh() }
    }
    session.post("retry") { _, context in
        try await command(sessions, context) { await $0.retry() }
    }
    session.get("events") { _, context -> Response in
        let id = try sessionID(context)
        // Never creates a session: events are those of a controller open on this instance.
        guard let feed = await sessions.existingController(for: id) else {
            throw ServiceError(.sessionNotFound, "no session \(id) is open on this instance")
        }
        let events = feed.events
        let body = ResponseBody { writer in
            try await sessions.countingEventStream {
                try await writeServerSentEvents(events, heartbeat: heartbeat, clock: heartbeatClock) { text in
                    try await writer.write(ByteBuffer(string: text))
                }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body)
    }
    router.delete("sessions/:session") { _, context -> HTTPResponse.Status in
        let id = try sessionID(context)
        guard try await sessions.remove(id) else {
            throw ServiceError(.sessionNotFound, "no session \(id)")
        }
        return .noContent
    }
    router.refuseOtherMethods("sessions/:session/items", "sessions/:session/events", allowing: [.get])
    router.refuseOtherMethods(
        "sessions/:session/more", "sessions/:session/refresh", "sessions/:session/retry", allowing: [.post])
    router.refuseOtherMethods("sessions/:session", allowing: [.delete])
    return router
}

/// The session id of the request's path, validated.
private func sessionID(_ context: FeedRequestContext) throws -> SessionID {
    try SessionID(validating: context.parameters.require("session"))
}

/// Runs a load on session `:session` and answers its ``CommandResponse``, with the status of
/// an upstream failure when it failed.
private func command(
    _ sessions: FeedSessions, _ context: FeedRequestContext,
    _ load: (FeedSessions.Controller) async -> LoadResult
) async throws -> EditedResponse<CommandResponse> {
    let id = try sessionID(context)
    let answer = try await sessions.withSession(id) { feed in
        let result = await load(feed)
        return CommandResponse(result: result, count: feed.currentSnapshot.count, status: feed.currentStatus)
    }
    let failure = UpstreamFailureStatus(answer.result.outcome)
    return EditedResponse(status: failure?.status ?? .ok, headers: failure?.headers ?? [:], response: answer)
}

extension Router<FeedRequestContext> {
    /// The methods a route may be called with, in the order of an `Allow` header.
    static let knownMethods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]

    /// Answers 405 (``ServiceError/Kind/methodNotAllowed``, with `Allow`) at each of `paths` for
    /// every method but `allowed` (and `HEAD`, which Hummingbird answers for a `GET` route).
    func refuseOtherMethods(_ paths: RouterPath..., allowing allowed: [HTTPRequest.Method]) {
        let permitted = allowed.contains(.get) ? allowed + [.head] : allowed
        let allow = Self.knownMethods.filter(permitted.contains).map(\.rawValue).joined(separator: ", ")
        for path in paths {
            for method in Self.knownMethods where !permitted.contains(method) {
                on(path, method: method) { request, _ -> Response in
                    throw ServiceError(
                        .methodNotAllowed, "\(request.method.rawValue) is not allowed here; allowed: \(allow)",
                        headers: [.allow: allow])
                }
            }
        }
    }
}
