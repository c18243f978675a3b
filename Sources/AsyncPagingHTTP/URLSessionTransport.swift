#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import AsyncPaging

/// An ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux).
///
/// Each request runs as a data task; cancelling the calling task cancels the data task, which
/// closes its connection — on Linux too, where it does not rely on the async `URLSession` API
/// to notice cancellation.
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// The per-request timeout given to `URLRequest` (time without data), or nil for the
    /// session's. The engine's own ``AsyncPaging/FeedConfiguration/timeout`` also bounds each fetch.
    public let requestTimeout: Duration?

    /// Creates a transport over `session`.
    public init(session: URLSession = .shared, requestTimeout: Duration? = nil) {
        self.session = session
        self.requestTimeout = requestTimeout
    }

    /// Sends `request` as a data task; cancelling the calling task cancels it and throws `CancellationError`.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headerFields { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        if let requestTimeout {
            // Division, not `components`, which traps beyond Int64.max seconds.
            urlRequest.timeoutInterval = requestTimeout / .seconds(1)
        }
        let handle = DataTaskHandle()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPTransportResponse, any Error>) in
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    if let error {
                        if handle.wasCancelled || (error as? URLError)?.code == .cancelled {
                            continuation.resume(throwing: CancellationError())
                        } else {
                            continuation.resume(throwing: error)
                        }
                        return
                    }
                    guard let http = response as? HTTPURLResponse else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                        return
                    }
                    var fields: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        fields["\(name)"] = "\(value)"
                    }
                    continuation.resume(returning: HTTPTransportResponse(
                        status: http.statusCode, headerFields: fields, body: data ?? Data()))
                }
                // Cancelled before the task existed: start it cancelled, so that its completion
                // handler answers (with `cancelled`) and the continuation is resumed once.
                if handle.install(task) { task.cancel() }
                task.resume()
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// The data task of one request, shared by the request and its cancellation handler.
final class DataTaskHandle: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var cancelled = false
    }

    // `URLSessionDataTask` is thread-safe (its methods may be called from any thread) but not
    // declared Sendable on every platform; it is only stored and cancelled here.
    private let state = Locked(State())

    /// Whether the request was cancelled.
    var wasCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stores `task`; returns true when the request was already cancelled (the caller then
    /// cancels the task itself, outside the lock).
    func install(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state in
            state.task = task
            return state.cancelled
        }
    }

    /// Marks the request cancelled and cancels its task, if there is one yet (after releasing
    /// the lock).
    func cancel() {
        let task = state.withLock { state -> URLSessionDataTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
