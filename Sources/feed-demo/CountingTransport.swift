import AsyncPagingHTTP
import Synchronization

/// The `--url` backend's transport: `URLSessionTransport`, counting what happens to the
/// requests for the title bar.
final class CountingTransport: HTTPTransport, DemoBackend {
    private struct Stats {
        var requests = 0
        var failed = 0
        var cancelled = 0
    }

    private let base: URLSessionTransport
    private let stats = Mutex(Stats())

    init(base: URLSessionTransport = URLSessionTransport()) {
        self.base = base
    }

    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        stats.withLock { $0.requests += 1 }
        do {
            let response = try await base.send(request)
            if !response.isSuccess { stats.withLock { $0.failed += 1 } }
            return response
        } catch is CancellationError {
            stats.withLock { $0.cancelled += 1 }
            throw CancellationError()
        } catch {
            stats.withLock { $0.failed += 1 }
            throw error
        }
    }

    var summary: String {
        let stats = stats.withLock { $0 }
        return "\(stats.requests) requests, \(stats.cancelled) cancelled, \(stats.failed) failed"
    }

    func injectFailure() -> String {
        "• f: only the simulated API fails on demand; a real API fails on its own (t retries)"
    }
}
