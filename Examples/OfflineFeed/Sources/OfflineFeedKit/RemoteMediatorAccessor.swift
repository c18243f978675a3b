/// Runs a ``RemoteMediator``'s loads by Paging 3's rules (its `RemoteMediatorAccessor`):
///
/// - **One at a time.** Mediator loads never overlap: a load of another type waits until the
///   running one ends, then runs.
/// - **Conflated.** A load of the type already running joins it and gets its answer: the
///   network is asked once.
/// - **A refresh comes first.** A refresh cancels a running prepend or append; the cancelled
///   load runs again once the refresh ends, for the callers still waiting on it.
/// - **A required refresh blocks the ends.** With ``MediatorInitializeAction/launchInitialRefresh``,
///   and after a failed refresh, loads at the ends throw ``OfflineFeedError/refreshRequired``
///   (or wait for the refresh when one runs) until a refresh succeeds.
/// - **The end of pagination.** An end whose last load said `endOfPaginationReached` answers
///   so at once without asking the network, until the next successful refresh (a refresh that
///   reached the end marks both ends).
///
/// A caller's cancellation does not cancel the mediator load it started or joined: the load
/// runs to its end and stores its page (the feed discards the cancelled caller's late answer).
public actor RemoteMediatorAccessor {
    /// The mediator whose loads this runs.
    public let mediator: any RemoteMediator
    /// What each load type is doing.
    public private(set) var states = MediatorLoadStates.idle
    /// Whether loads at the ends wait for a successful refresh.
    public private(set) var refreshRequired: Bool
    /// Loads started (not joined), for tests and logs.
    public private(set) var loadsStarted = 0

    /// Calls of ``load(_:)`` so far (started, joined or refused).
    public private(set) var callers = 0
    private var callerWaits: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var running: Running?
    private var serials: UInt64 = 0

    private struct Running {
        let type: MediatorLoadType
        let serial: UInt64
        let task: Task<MediatorResult, any Error>
    }

    /// Creates an accessor for `mediator`, whose ``RemoteMediator/initialize()`` answered
    /// `initialAction`.
    public init(mediator: any RemoteMediator, initialAction: MediatorInitializeAction) {
        self.mediator = mediator
        refreshRequired = initialAction == .launchInitialRefresh
    }

    /// Runs (or joins) a mediator load of `type` by the rules above and returns its result;
    /// throws the mediator's error, or ``OfflineFeedError/refreshRequired``.
    public func load(_ type: MediatorLoadType) async throws -> MediatorResult {
        callers += 1
        let arrived = callers
        callerWaits.removeAll { wait in
            guard wait.count <= arrived else { return false }
            wait.continuation.resume()
            return true
        }
        while true {
            if type != .refresh {
                if states[type] == .complete { return MediatorResult(endOfPaginationReached: true) }
                if refreshRequired && running?.type != .refresh { throw OfflineFeedError.refreshRequired }
            }
            let task: Task<MediatorResult, any Error>
            if let running {
                if running.type == type {
                    task = running.task
                } else if type == .refresh {
                    // The refresh takes the turn at once (loads arriving now wait for it) and
                    // runs once the cancelled load has ended: two loads never overlap.
                    running.task.cancel()
                    task = start(.refresh, after: running.task)
                } else {
                    // Wait for the running load to end (its bookkeeping is done when its value
                    // is), then look again.
                    _ = try? await running.task.value
                    continue
                }
            } else {
                task = start(type)
            }
            do {
                return try await task.value
            } catch is CancellationError where type != .refresh && !Task.isCancelled {
                // Cancelled by a refresh: run again after it, for this caller still waiting.
                continue
            }
        }
    }

    /// Returns once ``callers`` reaches `count`: a test's rendezvous with a call made from
    /// another task (it has reached the accessor, and joined or queued behind a running load).
    public func waitForCallers(_ count: Int) async {
        guard callers < count else { return }
        await withCheckedContinuation { callerWaits.append((count, $0)) }
    }

    /// Returns once no mediator load runs (at once when none does): a test's rendezvous with
    /// a load whose caller is gone.
    public func waitForIdle() async {
        while let running {
            _ = try? await running.task.value
        }
    }

    private func start(_ type: MediatorLoadType, after previous: Task<MediatorResult, any Error>? = nil) -> Task<MediatorResult, any Error> {
        serials += 1
        loadsStarted += 1
        let serial = serials
        states[type] = .loading
        let mediator = self.mediator
        let task = Task {
            _ = try? await previous?.value
            let result: Result<MediatorResult, any Error>
            do { result = .success(try await mediator.load(type)) } catch { result = .failure(error) }
            self.finished(type, serial: serial, result)
            return try result.get()
        }
        running = Running(type: type, serial: serial, task: task)
        return task
    }

    private func finished(_ type: MediatorLoadType, serial: UInt64, _ result: Result<MediatorResult, any Error>) {
        if running?.serial == serial { running = nil }
        switch result {
        case .success(let answer):
            if type == .refresh {
                refreshRequired = false
                states.refresh = .idle
                let ends: MediatorLoadState = answer.endOfPaginationReached ? .complete : .idle
                states.prepend = ends
                states.append = ends
            } else {
                states[type] = answer.endOfPaginationReached ? .complete : .idle
            }
        case .failure(let error as CancellationError):
            _ = error
            states[type] = .idle
        case .failure(let error):
            states[type] = .failed(String(describing: error))
            if type == .refresh { refreshRequired = true }
        }
    }
}
