import AsyncPaging
import Foundation

/// Writes a session's events as server-sent events (`event: feed` and the ``FeedEvent`` as
/// JSON with sorted keys, then a blank line), and a comment line (`: heartbeat`) every
/// `heartbeat` on `clock` while no event comes.
///
/// The heartbeat is what releases a client that hung up: without writes, nothing tells the
/// server the socket is gone, and the subscription would be held until the session's next
/// event. A write to a closed connection throws; this function then stops reading `events`
/// (cancelling its iteration ends the controller's subscription) and rethrows. So a client
/// that went away is released after at most two heartbeats (the first write after the hang-up
/// may still be accepted by the kernel; the next one fails). It returns normally when `events`
/// finishes (the session was closed).
///
/// - Parameters:
///   - events: The controller's events (``FeedController/events``).
///   - heartbeat: Time between heartbeats while no event is written.
///   - clock: The clock of the heartbeats.
///   - write: Writes one chunk to the response; called from the caller's task only.
public func writeServerSentEvents(
    _ events: AsyncStream<FeedEvent>,
    heartbeat: Duration,
    clock: any Clock<Duration>,
    write: (String) async throws -> Void
) async throws {
    enum Chunk: Sendable {
        case event(FeedEvent)
        case heartbeat
    }
    let (chunks, sink) = AsyncStream.makeStream(of: Chunk.self)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            // Ends when the session closes, or when cancelled (which ends the subscription).
            for await event in events { sink.yield(.event(event)) }
            sink.finish()
        }
        group.addTask {
            // Ends when cancelled (the sleep throws).
            while (try? await clock.sleep(for: heartbeat)) != nil {
                sink.yield(.heartbeat)
            }
        }
        let encoder = FeedRequestContext.makeEncoder()
        do {
            for await chunk in chunks {
                switch chunk {
                case .event(let event):
                    let data = try encoder.encode(event)
                    try await write("event: feed\ndata: \(String(decoding: data, as: UTF8.self))\n\n")
                case .heartbeat:
                    try await write(": heartbeat\n\n")
                }
            }
        } catch {
            group.cancelAll()
            sink.finish()
            throw error
        }
        group.cancelAll()
    }
}
