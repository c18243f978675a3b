import AsyncPaging
import FeedServiceApp
import Foundation
import Hummingbird
import Synchronization

// A measuring baseline for FeedService, not a service: `POST /sessions/:session/more` over the
// same in-process source (`FakeFeedAPI`) and the same JSON (`CommandResponse`, sorted keys), kept
// by nothing but a cursor and a count per session — no controller, no list, no registry, no
// idle timeout, no cap. `load-ratio.sh` drives it and FeedService side by side; what FeedService
// answers per second ÷ what this answers is the cost of the engine in a service.
//
// Usage: CursorBaseline [--host 127.0.0.1] [--port 0] [--items 100] [--page-size 20]
// Prints `CursorBaseline listening on HOST:PORT` first.

/// What the baseline keeps of a session.
struct CursorSession: Sendable {
    var next: String?
    var count: Int
    var ended: Bool
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ flag: String, _ fallback: String) -> String {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return fallback }
    return arguments[index + 1]
}
let host = option("--host", "127.0.0.1")
guard let port = Int(option("--port", "0")), let items = Int(option("--items", "100")),
      let pageSize = Int(option("--page-size", "20")), pageSize > 0
else {
    FileHandle.standardError.write(Data("CursorBaseline: invalid arguments \(arguments)\n".utf8))
    exit(2)
}

let source = FakeFeedAPI(totalItems: items)
let sessions = Mutex<[String: CursorSession]>([:])
let clock = ContinuousClock()

let router = Router(context: FeedRequestContext.self)
router.post("sessions/:session/more") { _, context -> CommandResponse in
    let key = try SessionID(validating: context.parameters.require("session")).rawValue
    let known = sessions.withLock { $0[key] }
    if let known, known.ended {
        return CommandResponse(
            result: LoadResult(side: .loadMore, outcome: .endOfData), count: known.count, status: .endOfData)
    }
    // A new session's first request loads its first page, as FeedService's does.
    let side: FeedSide = known == nil ? .refresh : .loadMore
    let page = try await source.page(
        for: PageRequest(cursor: known?.next, side: side, pageSize: pageSize, clock: clock))
    let ended = page.next == nil
    let count = sessions.withLock { sessions in
        let count = (sessions[key]?.count ?? 0) + page.items.count
        sessions[key] = CursorSession(next: page.next, count: count, ended: ended)
        return count
    }
    return CommandResponse(
        result: LoadResult(
            side: side, outcome: .completed(LoadSummary(itemsApplied: page.items.count, reachedEnd: ended))),
        count: count, status: ended ? .endOfData : .idle)
}

let app = Application(
    router: router,
    configuration: .init(address: .hostname(host, port: port), serverName: "CursorBaseline"),
    onServerRunning: { channel in
        FileHandle.standardOutput.write(
            Data("CursorBaseline listening on \(host):\(channel.localAddress?.port ?? port)\n".utf8))
    })
try await app.runService()
