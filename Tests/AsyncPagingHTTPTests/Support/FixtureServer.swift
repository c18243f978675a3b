#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import AsyncPagingHTTP

/// The Python fixture server (Fixtures/fixture_server.py) on 127.0.0.1, one per test: started
/// on port 0, it prints its port; `stop()` (or the end of the test process, which closes its
/// stdin) ends it.
final class FixtureServer: Sendable {
    let process: Process
    let port: Int
    private let stdinPipe: Pipe
    /// The transport the tests' page sources use: a session of this server's own, so that no
    /// other test's requests share its connection pool or work queue (with `URLSession.shared`
    /// a cancelled request's close was once not seen within 25 s while the whole suite ran
    /// under the thread sanitizer).
    let transport: URLSessionTransport
    /// The transport of the control routes (long polls), apart from the sources' connections.
    private let controlTransport: URLSessionTransport

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The URL of `path` (such as `"/cursor?key=a"`) on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    private init(process: Process, port: Int, stdinPipe: Pipe) {
        self.process = process
        self.port = port
        self.stdinPipe = stdinPipe
        transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        controlTransport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
    }

    static var scriptURL: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fixture_server.py")
    }

    /// Starts a server and reads its port (bounded: the script must print it within 20 s). The
    /// blocking part (starting Python, reading its first line) runs on a thread of its own, so
    /// that a slow start under load never holds one of the few threads every test's tasks run on.
    static func start() async throws -> FixtureServer {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<FixtureServer, any Error>) in
            Thread { continuation.resume(with: Result { try startBlocking() }) }.start()
        }
    }

    private static func startBlocking() throws -> FixtureServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        // Read the first line (the port). The read blocks, so a watchdog ends the process if it
        // never prints, which ends the read with EOF.
        let printed = DispatchSemaphore(value: 0)
        Thread {
            if printed.wait(timeout: .now() + 20) == .timedOut, process.isRunning { process.terminate() }
        }.start()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        printed.signal()
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)) else {
            if process.isRunning { process.terminate() }
            throw FixtureServerError.noPort(String(decoding: line, as: UTF8.self))
        }
        return FixtureServer(process: process, port: port, stdinPipe: input)
    }

    /// Ends the server: closing its stdin makes it exit at once (Foundation's
    /// `waitUntilExit()` is not used: it can hang inside a test's task on Linux). The sessions
    /// let their tasks end (the server's exit ends them): `invalidateAndCancel()` cancels every
    /// task, which on Linux can trap on a task that is completing (see `URLSessionTransport`).
    func stop() {
        try? stdinPipe.fileHandleForWriting.close()
        transport.session.finishTasksAndInvalidate()
        controlTransport.session.finishTasksAndInvalidate()
    }

    // MARK: Control routes

    private func getJSON(_ path: String, method: String = "GET") async throws -> [String: Any] {
        let response = try await controlTransport.send(HTTPTransportRequest(method: method, url: url(path)))
        return (try JSONSerialization.jsonObject(with: response.body) as? [String: Any]) ?? [:]
    }

    /// Inserts `count` new items at the head of the server's list.
    func insertAtHead(_ count: Int) async throws {
        _ = try await getJSON("/control/insert?count=\(count)", method: "POST")
    }

    /// How many requests the server saw with `key`.
    func requestCount(key: String) async throws -> Int {
        try await getJSON("/control/requests?key=\(key)")["count"] as? Int ?? -1
    }

    /// Waits (on the server, at most `timeoutMilliseconds`) until the client closed the
    /// connection of the request tagged `tag` before its answer.
    func waitUntilClosed(tag: String, timeoutMilliseconds: Int = 10_000) async throws -> Bool {
        try await getJSON("/control/wait-closed?tag=\(tag)&timeout_ms=\(timeoutMilliseconds)")["closed"] as? Bool ?? false
    }

    /// Waits (on the server) until a request tagged `tag` arrived.
    func waitUntilStarted(tag: String, timeoutMilliseconds: Int = 10_000) async throws -> Bool {
        try await getJSON("/control/started?tag=\(tag)&timeout_ms=\(timeoutMilliseconds)")["started"] as? Bool ?? false
    }
}

enum FixtureServerError: Error {
    case noPort(String)
}

/// An item of the fixture server.
struct FixtureItem: Codable, Sendable, Hashable {
    let id: Int
    let title: String
}

/// `/cursor`'s body.
struct CursorBody: Decodable, Sendable {
    let data: [FixtureItem]
    let next_cursor: String?
}

/// `/offset`'s and `/pages`' body.
struct ItemsBody: Decodable, Sendable {
    let items: [FixtureItem]
    let total: Int?
    let has_more: Bool?
}
