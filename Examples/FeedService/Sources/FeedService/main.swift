import FeedServiceApp
import Foundation

// Usage: FeedService [--host 127.0.0.1] [--port 8080 | 0] [--upstream URL]
//                    [--upstream-client async-http-client | urlsession] [--items 100]
//                    [--latency-ms 0] [--page-size 20] [--idle-seconds 300] [--max-sessions 10000]
//                    [--store postgres://user@host:port/db | memory] [--store-connections 20]
//                    [--heartbeat-seconds 5]
let options: ServiceOptions
do {
    options = try ServiceOptions(arguments: Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("FeedService: \(error)\n".utf8))
    exit(2)
}
let app = try buildApplication(options: options) { port in
    // Unbuffered: scripts read the port from this line.
    FileHandle.standardOutput.write(Data("FeedService listening on \(options.host):\(port)\n".utf8))
}
try await app.runService()
