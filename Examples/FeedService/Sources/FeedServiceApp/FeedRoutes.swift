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
/// | `GET /sessions/:session/events` | the controller's events as server-sent events (`event: feed`, JSON data) |
/// | `DELETE /sessions/:session` | closes the session (204, or 404 if there was none) |
/// | `GET /stats` | open sessions |
public func buildRouter(sessions: FeedSessions) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("/health") { _, _ in "ok" }
    router.get("/stats") { _, _ in StatsResponse(sessions: await sessions.count) }

    let session = router.group("sessions/:session")
    session.get("items") { request, context in
        let feed = await sessions.controller(for: try context.parameters.require("session"))
        let first = await feed.waitForFirstPage()
        if case .failed(let failure) = first.outcome {
            // Nothing is listed: say why (the upstream failed), not an empty list. `retry` retries it.
            throw HTTPError(.badGateway, message: "the first page failed: \(failure.error)")
        }
        let snapshot = feed.currentSnapshot
        let from = min(max(0, request.uri.queryParameters.get("from", as: Int.self) ?? 0), snapshot.count)
        return ItemsResponse(
            version: snapshot.version, generation: snapshot.generation, count: snapshot.count, from: from,
            items: Array(snapshot[from...]), status: feed.currentStatus, nextCursor: await feed.cursors.next)
    }
    session.post("more") { _, context in
        let feed = await sessions.controller(for: try context.parameters.require("session"))
        // A new session's first load-more waits for its first page rather than being ignored;
        // when that page failed, its failure is the answer (a load-more would only be ignored:
        // there is no first page to append to).
        if feed.currentSnapshot.version == 0 {
            let first = await feed.waitForFirstPage()
            if case .failed = first.outcome {
                return CommandResponse(result: first, count: feed.currentSnapshot.count, status: feed.currentStatus)
            }
        }
        let result = await feed.loadMore()
        return CommandResponse(result: result, count: feed.currentSnapshot.count, status: feed.currentStatus)
    }
    session.post("refresh") { _, context in
        let feed = await sessions.controller(for: try context.parameters.require("session"))
        let result = await feed.refresh()
        return CommandResponse(result: result, count: feed.currentSnapshot.count, status: feed.currentStatus)
    }
    session.post("retry") { _, context in
        let feed = await sessions.controller(for: try context.parameters.require("session"))
        let result = await feed.retry()
        return CommandResponse(result: result, count: feed.currentSnapshot.count, status: feed.currentStatus)
    }
    session.get("events") { _, context -> Response in
        let feed = await sessions.controller(for: try context.parameters.require("session"))
        let events = feed.events
        let body = ResponseBody { writer in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            // Ends when the session is closed (the stream finishes) or the client goes away
            // (the write throws).
            for await event in events {
                let data = try encoder.encode(event)
                try await writer.write(ByteBuffer(string: "event: feed\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body)
    }
    router.delete("sessions/:session") { _, context -> HTTPResponse.Status in
        await sessions.remove(try context.parameters.require("session")) ? .noContent : .notFound
    }
    return router
}
