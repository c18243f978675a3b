#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AsyncPaging
import Foundation

/// A small HTTP/1.1 server on 127.0.0.1, in this process, for the tests that cancel page loads
/// by the hundred thousand: the Python fixture server answers about 2,000 requests a second on
/// a shared two-core machine, this one several times more.
///
/// It serves what those tests ask for, the fixture server's `/cursor` route over the same 50
/// items (`{"id": n, "title": "item n"}`, newest first):
/// `GET /cursor?key=K&cursor=C&limit=L` answers `{"data": [...], "next_cursor": "<id>" | null}`
/// with the `L` items (20 by default) older than id `C` (all without `C`), and counts the request
/// under `K` (``requestCount(key:)``). Any other route answers 404.
///
/// How: one thread accepts connections, one thread per connection reads requests with blocking
/// calls and answers them in order, keeping the connection alive until the client closes it or
/// sends `Connection: close` (answers are written with `TCP_NODELAY`, and pipelined requests
/// get their answers in one write). ``stop()`` closes every connection and the listening socket.
final class LoopbackHTTPServer: Sendable {
    /// A system call that failed while starting.
    struct SocketError: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// A request head seen before: the key its requests count under (nil: not counted), its
    /// whole answer, and what the head said about the body and the connection.
    private struct KnownRequest {
        var countKey: String?
        var answer: [UInt8]
        var contentLength: Int
        var closesConnection: Bool
    }

    private struct State {
        var stopped = false
        /// Open connections, shut down by ``stop()``; a connection's thread removes its socket
        /// before closing it, under the same lock, so a socket number is never shut down after
        /// the system gave it to someone else.
        var connections: Set<Int32> = []
        var connectionsAccepted = 0
        var requestsAnswered = 0
        var requestCounts: [String: Int] = [:]
        /// What to do for a request head already seen, by its bytes (a client asks for the same
        /// few pages again and again, and the list never changes): parsing a head costs more
        /// than answering it.
        var known: [String: KnownRequest] = [:]
    }

    /// Items of the list, newest first: ids `itemCount` down to 1.
    static let itemCount = 50

    /// The port it listens on, on 127.0.0.1.
    let port: Int
    private let listener: Int32
    /// The package's pthread lock (`Locked`), not `Mutex`: ThreadSanitizer does not see the order
    /// `Mutex` gives two holders on Linux and reported the accepting thread and `stop()` racing.
    private let state = Locked(State())

    private init(listener: Int32, port: Int) {
        self.listener = listener
        self.port = port
    }

    /// The URL of `path` (such as `"/cursor?key=a"`) on this server.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// How many requests the server saw with `key`.
    func requestCount(key: String) -> Int {
        state.withLock { $0.requestCounts[key, default: 0] }
    }

    /// Connections accepted since the start (a client that reuses its connections opens few).
    var connectionsAccepted: Int { state.withLock { $0.connectionsAccepted } }

    /// Requests answered since the start, on every route.
    var requestsAnswered: Int { state.withLock { $0.requestsAnswered } }

    /// Starts a server on 127.0.0.1 on a free port.
    static func start() throws -> LoopbackHTTPServer {
        let listener = socket(AF_INET, Self.streamSocketType, 0)
        guard listener >= 0 else { throw SocketError(call: "socket", code: errno) }
        var address = Self.loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 1_024) == 0 else {
            let code = errno
            close(listener)
            throw SocketError(call: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(listener)
            throw SocketError(call: "getsockname", code: code)
        }
        let server = LoopbackHTTPServer(listener: listener, port: Int(UInt16(bigEndian: address.sin_port)))
        let acceptor = Thread { server.acceptConnections() }
        acceptor.name = "LoopbackHTTPServer.accept"
        acceptor.start()
        return server
    }

    /// Closes every connection (their clients see them closed) and stops accepting new ones.
    /// Calling it again does nothing.
    func stop() {
        let first = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.stopped = true
            // Wakes each connection's thread from its read; the thread closes the socket.
            for connection in state.connections { shutdown(connection, Int32(SHUT_RDWR)) }
            return true
        }
        guard first else { return }
        // Wakes the accepting thread, which then sees `stopped` and closes the listener.
        let waker = socket(AF_INET, Self.streamSocketType, 0)
        guard waker >= 0 else { return }
        var address = Self.loopbackAddress(port: port)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(waker, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(waker)
    }

    // MARK: Connections

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                break
            }
            let accepted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(connection)
                state.connectionsAccepted += 1
                return true
            }
            guard accepted else {
                close(connection)
                break
            }
            var noDelay: Int32 = 1
            setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            var noSignal: Int32 = 1
            setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.connections.remove(connection) }
                close(connection)
            }
            thread.name = "LoopbackHTTPServer.connection"
            thread.start()
        }
        close(listener)
    }

    /// Reads requests from `connection` and answers them until the client closes it, asks to
    /// close it, sends something that is not an HTTP/1.x request, or ``stop()`` shuts it down.
    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16_384)
        var readBuffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            // Answer every whole request in the buffer, in order, with one write.
            var output: [UInt8] = []
            var consumed = 0
            var closing = false
            while let headEnd = Self.endOfHead(in: buffer, from: consumed) {
                guard let request = knownRequest(String(decoding: buffer[consumed..<headEnd], as: UTF8.self)) else {
                    output += Self.answer(status: "400 Bad Request", body: Array(#"{"error": "bad request"}"#.utf8), closing: true)
                    closing = true
                    break
                }
                let requestEnd = headEnd + 4 + request.contentLength
                guard requestEnd <= buffer.count else { break } // the body is still coming
                state.withLock { state in
                    if let key = request.countKey { state.requestCounts[key, default: 0] += 1 }
                    state.requestsAnswered += 1
                }
                output += request.answer
                consumed = requestEnd
                if request.closesConnection {
                    closing = true
                    break
                }
            }
            if consumed > 0 { buffer.removeFirst(consumed) }
            if !output.isEmpty, !Self.writeAll(output, to: connection) { return }
            if closing { return }
            let count = readBuffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return } // closed by the client, shut down by stop(), or an error
            buffer += readBuffer[0..<count]
        }
    }

    /// What to do for the request whose head is `head` (without its closing empty line): from
    /// the known heads, or parsed and remembered; nil when it is not an HTTP/1.x request.
    private func knownRequest(_ head: String) -> KnownRequest? {
        if let known = state.withLock({ $0.known[head] }) { return known }
        guard let parsed = HTTPRequestHead(Array(head.utf8)[...]) else { return nil }
        let request = Self.answer(parsed)
        state.withLock { state in
            // Bounded: a client sending ever new heads gets them parsed every time.
            if state.known.count < 4_096 { state.known[head] = request }
        }
        return request
    }

    /// The answer to one request, with its status line and headers.
    private static func answer(_ head: HTTPRequestHead) -> KnownRequest {
        guard head.method == "GET", head.path == "/cursor" else {
            return KnownRequest(
                countKey: nil,
                answer: answer(status: "404 Not Found", body: Array(#"{"error": "no route"}"#.utf8), closing: head.closesConnection),
                contentLength: head.contentLength, closesConnection: head.closesConnection)
        }
        let query = head.query
        let cursor = query["cursor"].flatMap { Int($0) }
        let limit = query["limit"].flatMap { Int($0) }.map { max(0, $0) } ?? 20
        return KnownRequest(
            countKey: query["key"] ?? String(head.path),
            answer: answer(status: "200 OK", body: cursorPage(after: cursor, limit: limit), closing: head.closesConnection),
            contentLength: head.contentLength, closesConnection: head.closesConnection)
    }

    /// `/cursor`'s body: the `limit` items older than id `cursor`, and the next cursor when more
    /// are left.
    private static func cursorPage(after cursor: Int?, limit: Int) -> [UInt8] {
        let newest = min(itemCount, (cursor ?? itemCount + 1) - 1)
        let ids = newest >= 1 ? Array(stride(from: newest, through: max(1, newest - limit + 1), by: -1)) : []
        let more = (ids.last ?? 1) > 1 && !ids.isEmpty
        let items = ids.map { #"{"id": \#($0), "title": "item \#($0)"}"# }.joined(separator: ", ")
        let next = more ? #""\#(ids.last!)""# : "null"
        return Array(#"{"data": [\#(items)], "next_cursor": \#(next)}"#.utf8)
    }

    private static func answer(status: String, body: [UInt8], closing: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        if closing { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// The index of the `\r\n\r\n` that ends a request head at or after `start`, or nil
    /// (each carriage return found by `memchr`: a byte loop is slow in a debug build).
    private static func endOfHead(in buffer: [UInt8], from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { bytes -> Int? in
            let base = UnsafeRawPointer(bytes.baseAddress!)
            var index = start
            while bytes.count - index >= 4 {
                guard let found = memchr(base + index, 13, bytes.count - index) else { return nil }
                index = UnsafeRawPointer(found) - base
                if bytes.count - index < 4 { return nil }
                if bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 { return index }
                index += 1
            }
            return nil
        }
    }

    /// Writes all of `bytes`; false when the connection failed (closed by the client, or shut
    /// down by ``stop()``).
    private static func writeAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            var written = 0
            while written < raw.count {
                let count = send(connection, raw.baseAddress! + written, raw.count - written, Self.sendFlags)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }

    #if canImport(Glibc)
    private static let streamSocketType = Int32(SOCK_STREAM.rawValue)
    /// A write to a connection the client closed fails instead of raising SIGPIPE.
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamSocketType = SOCK_STREAM
    private static let sendFlags: Int32 = 0 // SO_NOSIGPIPE is set on each connection
    #endif
}
