#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import AsyncPaging

/// An ``HTTPTransport`` over `URLSession` (FoundationNetworking on Linux).
///
/// Each request runs as a data task. Cancelling the calling task ends ``send(_:)`` at once with
/// `CancellationError`, whatever the data task is doing. A request cancelled before its data
/// task is made is never sent; what happens to one whose task runs depends on the platform:
///
/// - **Apple platforms**: the data task is cancelled (`URLSessionTask.cancel()`), which closes
///   its connection.
/// - **Linux** (swift-corelibs-foundation's FoundationNetworking): the data task is **not**
///   cancelled. It runs to its end and its response is discarded. `URLSessionTask.cancel()` is
///   not safe to call there on a task that may be completing: `cancel()` looks up the task's
///   protocol on one turn of the session's work queue and stops it on a later turn; if the
///   response completes in between, the completion handler runs on the delegate queue and the
///   task leaves the session's task registry, and the stop then looks the task up again and
///   traps ("Trying to access a behaviour for a task that in not in the registry", in
///   FoundationNetworking's task registry). No lock of the caller can close that window — the
///   task was running
///   when `cancel()` was called — so this transport never calls `cancel()` there.
///
///   What that costs: a cancelled request keeps its connection (and its place among the
///   session's `httpMaximumConnectionsPerHost`, 6 by default) until its response ends, at most
///   its timeout — ``requestTimeout``, or the session's `timeoutIntervalForRequest` (60 s by
///   default); requests made meanwhile may wait for a connection. The server is not told that
///   nobody waits for the answer. Give a slow or untrusted upstream a short ``requestTimeout``;
///   a server on Linux that cancels many loads is better served by AsyncHTTPClient, which
///   closes the request on cancellation (see <doc:ChoosingATransport>).
public struct URLSessionTransport: HTTPTransport {
    /// The session requests go through.
    public let session: URLSession
    /// The per-request timeout given to `URLRequest`, or nil for the session's. On Linux it also
    /// bounds how long a cancelled request keeps its connection. The engine's own
    /// ``AsyncPaging/FeedConfiguration/timeout`` also bounds each fetch.
    public let requestTimeout: Duration?

    /// Creates a transport over `session`.
    public init(session: URLSession = .shared, requestTimeout: Duration? = nil) {
        self.session = session
        self.requestTimeout = requestTimeout
    }

    /// Sends `request` as a data task. Cancelling the calling task throws `CancellationError` at
    /// once; on Apple platforms it also cancels the data task, on Linux the data task runs to
    /// its end unobserved (see the type's documentation).
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        try Task.checkCancellation()
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headerFields { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        if let requestTimeout {
            // Division, not `components`, which traps beyond Int64.max seconds.
            urlRequest.timeoutInterval = requestTimeout / .seconds(1)
        }
        let pending = PendingDataTask()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPTransportResponse, any Error>) in
                // Cancelled before this point: no data task is made, nothing is sent.
                guard pending.install(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let task = session.dataTask(with: urlRequest) { data, response, error in
                    pending.complete(with: Self.result(data: data, response: response, error: error))
                }
                // Cancelled from here on: the continuation is resumed by `cancel()` below; the
                // task is still resumed (on Linux a task never resumed would stay in the
                // session's registry), and its answer is discarded.
                let cancelledAlready = pending.attach(task)
                task.resume()
                #if !canImport(FoundationNetworking)
                if cancelledAlready { task.cancel() }
                #else
                _ = cancelledAlready
                #endif
            }
        } onCancel: {
            pending.cancel()
        }
    }

    /// The outcome of a data task, as its completion handler got it.
    static func result(data: Data?, response: URLResponse?, error: (any Error)?) -> Result<HTTPTransportResponse, any Error> {
        if let error {
            return .failure((error as? URLError)?.code == .cancelled ? CancellationError() : error)
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(URLError(.badServerResponse))
        }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            fields["\(name)"] = "\(value)"
        }
        return .success(HTTPTransportResponse(status: http.statusCode, headerFields: fields, body: data ?? Data()))
    }
}

/// One request of ``URLSessionTransport``, shared by the request, its data task's completion
/// handler and its cancellation handler: whichever of completion and cancellation comes first
/// resumes the continuation, exactly once.
final class PendingDataTask: Sendable {
    private struct State {
        var continuation: CheckedContinuation<HTTPTransportResponse, any Error>?
        /// Set by ``attach(_:)``; read on Apple platforms only, to cancel it.
        var task: URLSessionDataTask?
        var cancelled = false
        var ended = false
    }

    // `Locked` is Sendable; `URLSessionDataTask` is thread-safe (its methods may be called from
    // any thread) but not declared Sendable on every platform: it is only stored here and, on
    // Apple platforms, cancelled after the lock is released.
    private let state = Locked(State())

    /// Stores the continuation, unless the request was cancelled already: then returns false
    /// and the caller resumes the continuation with `CancellationError` (after the lock is
    /// released) and makes no data task.
    func install(_ continuation: CheckedContinuation<HTTPTransportResponse, any Error>) -> Bool {
        state.withLock { state -> Bool in
            if state.cancelled {
                state.ended = true
                return false
            }
            state.continuation = continuation
            return true
        }
    }

    /// Stores the data task, made after ``install(_:)``; returns true when the request was
    /// cancelled in between (its continuation already resumed), so that on Apple platforms the
    /// caller cancels the task.
    func attach(_ task: URLSessionDataTask) -> Bool {
        state.withLock { state -> Bool in
            if state.cancelled { return true }
            if !state.ended { state.task = task }
            return false
        }
    }

    /// The data task's completion handler: resumes the continuation unless cancellation did.
    func complete(with result: Result<HTTPTransportResponse, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<HTTPTransportResponse, any Error>? in
            state.ended = true
            state.task = nil
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    /// The cancellation handler: resumes the continuation with `CancellationError` unless the
    /// response did; on Apple platforms, cancels the data task (never on Linux: see
    /// ``URLSessionTransport``).
    func cancel() {
        let (continuation, task) = state.withLock { state -> (CheckedContinuation<HTTPTransportResponse, any Error>?, URLSessionDataTask?) in
            state.cancelled = true
            defer {
                state.continuation = nil
                state.task = nil
            }
            return (state.continuation, state.ended ? nil : state.task)
        }
        continuation?.resume(throwing: CancellationError())
        #if !canImport(FoundationNetworking)
        task?.cancel()
        #else
        _ = task
        #endif
    }
}
