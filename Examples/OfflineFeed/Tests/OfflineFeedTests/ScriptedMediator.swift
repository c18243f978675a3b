import Foundation
import OfflineFeedKit
import Synchronization

/// A mediator over an in-memory network: items `0..<count` (titles "n0", "n1", …), whose
/// refresh fetches the page at `refreshStart`, appends the page after the last stored one and
/// prepends the page before the first. Cursors are item indexes as text.
///
/// Each load is recorded. Failures are scripted per load type (`failNext`). With `gated`, a
/// load waits until the test answers it (`answer(_:)`): the test waits for the load to start
/// on `started` (a rendezvous, no sleep), checks what it wants meanwhile, then answers.
final class ScriptedMediator: RemoteMediator {
    struct Failure: Error, Equatable, CustomStringConvertible {
        let label: String
        var description: String { "network down (\(label))" }
    }

    let database: FeedDatabase
    let count: Int
    let pageSize: Int
    let refreshStart: Int
    let initialAction: MediatorInitializeAction
    let gated: Bool
    /// One element per load started (after it is recorded).
    let started: AsyncStream<MediatorLoadType>
    private let startedSink: AsyncStream<MediatorLoadType>.Continuation
    private let state = Mutex(State())

    private struct State {
        var loads: [MediatorLoadType] = []
        var concurrent = 0
        var maximumConcurrent = 0
        var failNext: [MediatorLoadType: [Failure]] = [:]
        var gates: [(id: Int, type: MediatorLoadType, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextGate = 0
        var opened: [MediatorLoadType: Int] = [:]
    }

    init(
        database: FeedDatabase, count: Int = 100, pageSize: Int = 10, refreshStart: Int = 0,
        initialAction: MediatorInitializeAction = .skipInitialRefresh, gated: Bool = false
    ) {
        self.database = database
        self.count = count
        self.pageSize = pageSize
        self.refreshStart = refreshStart
        self.initialAction = initialAction
        self.gated = gated
        (started, startedSink) = AsyncStream.makeStream(of: MediatorLoadType.self)
    }

    var loads: [MediatorLoadType] { state.withLock { $0.loads } }
    /// The most loads that ran at once.
    var maximumConcurrent: Int { state.withLock { $0.maximumConcurrent } }

    /// The next load of `type` throws a `Failure` labelled `label`.
    func failNext(_ type: MediatorLoadType, _ label: String = "test") {
        state.withLock { $0.failNext[type, default: []].append(Failure(label: label)) }
    }

    /// Lets the waiting (or next) gated load of `type` run.
    func answer(_ type: MediatorLoadType) {
        let gate: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if let index = state.gates.firstIndex(where: { $0.type == type }) {
                return state.gates.remove(at: index).continuation
            }
            state.opened[type, default: 0] += 1
            return nil
        }
        gate?.resume(returning: true)
    }

    func initialize() async -> MediatorInitializeAction { initialAction }

    func load(_ type: MediatorLoadType) async throws -> MediatorResult {
        state.withLock { state in
            state.loads.append(type)
            state.concurrent += 1
            state.maximumConcurrent = max(state.maximumConcurrent, state.concurrent)
        }
        defer { state.withLock { $0.concurrent -= 1 } }
        startedSink.yield(type)
        if gated { try await waitForAnswer(type) }
        if let failure = state.withLock({ $0.failNext[type]?.isEmpty == false ? $0.failNext[type]!.removeFirst() : nil }) {
            throw failure
        }
        let edges = try await database.edges()
        switch type {
        case .refresh:
            let end = min(count, refreshStart + pageSize)
            let next = end < count ? String(end) : nil
            let previous = refreshStart > 0 ? String(refreshStart) : nil
            try await database.storeRefresh(items(refreshStart..<end), previous: previous, next: next)
            return MediatorResult(endOfPaginationReached: next == nil && refreshStart == 0)
        case .append:
            let start = edges.endCursor.flatMap { Int($0) } ?? 0
            if edges.endReached { return MediatorResult(endOfPaginationReached: true) }
            let end = min(count, start + pageSize)
            let next = end < count ? String(end) : nil
            try await database.storeAppend(items(start..<end), next: next)
            return MediatorResult(endOfPaginationReached: next == nil)
        case .prepend:
            guard let cursor = edges.startCursor.flatMap({ Int($0) }), !edges.startReached else {
                return MediatorResult(endOfPaginationReached: true)
            }
            let start = max(0, cursor - pageSize)
            try await database.storePrepend(items(start..<cursor), previous: start > 0 ? String(start) : nil)
            return MediatorResult(endOfPaginationReached: start == 0)
        }
    }

    func items(_ range: Range<Int>) -> [NetworkPost] {
        range.map { NetworkPost(id: $0, title: "n\($0)") }
    }

    private func waitForAnswer(_ type: MediatorLoadType) async throws {
        let id = state.withLock { state in
            state.nextGate += 1
            return state.nextGate
        }
        let passed = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let answerNow: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    if state.opened[type, default: 0] > 0 {
                        state.opened[type]! -= 1
                        return true
                    }
                    state.gates.append((id, type, continuation))
                    return nil
                }
                if let answerNow { continuation.resume(returning: answerNow) }
            }
        } onCancel: {
            let gate = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.gates.firstIndex(where: { $0.id == id }) else { return nil }
                return state.gates.remove(at: index).continuation
            }
            gate?.resume(returning: false)
        }
        if !passed { throw CancellationError() }
    }
}
