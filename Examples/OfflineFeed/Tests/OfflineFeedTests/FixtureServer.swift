#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import AsyncPagingHTTP
import Foundation

/// The library's fixture HTTP server (Tests/AsyncPagingHTTPTests/Fixtures/fixture_server.py at
/// the repository's root) on 127.0.0.1: started on port 0, it prints its port; closing its
/// stdin (`stop()`, or the end of the test process) ends it. Its `/cursor` route serves items
/// 50…1, newest first, with the next cursor in the body.
final class FixtureServer: Sendable {
    let port: Int
    private let stdinPipe: Pipe
    /// A session of this server's own, bounded per request.
    let transport: URLSessionTransport

    var cursorURL: URL { URL(string: "http://127.0.0.1:\(port)/cursor")! }

    private init(port: Int, stdinPipe: Pipe) {
        self.port = port
        self.stdinPipe = stdinPipe
        transport = URLSessionTransport(session: URLSession(configuration: .ephemeral), requestTimeout: .seconds(20))
    }

    static var scriptURL: URL {
        // Tests/OfflineFeedTests/FixtureServer.swift -> the repository's root, four levels up.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Tests/AsyncPagingHTTPTests/Fixtures/fixture_server.py")
    }

    /// Starts a server and reads its port (bounded: a watchdog ends the script if it has not
    /// printed it within 20 s, which ends the read).
    static func start() throws -> FixtureServer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
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
        return FixtureServer(port: port, stdinPipe: input)
    }

    /// Ends the server.
    func stop() {
        try? stdinPipe.fileHandleForWriting.close()
        transport.session.finishTasksAndInvalidate()
    }
}

enum FixtureServerError: Error {
    case noPort(String)
}
