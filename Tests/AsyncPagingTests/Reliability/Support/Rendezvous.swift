import AsyncPaging

/// Rendezvous with the controller's actor, without yielding or sleeping.
enum Rendezvous {
    /// Returns once the controller has finished the job it was running: this runs on the
    /// controller's executor, which runs one job at a time. After observing an event or a
    /// diagnostic published in the middle of a job, awaiting this means the whole job (its
    /// status included) is done.
    static func barrier(_ feed: isolated RowFeed) {}

    /// Makes `call` on the controller and returns once the controller has taken it (started,
    /// joined or answered), while the call may still be waiting for its load to end. The
    /// answer goes to `outcomes`, with the version of the list the caller sees when it resumes
    /// (outputs are published before callers are answered).
    ///
    /// `Task.immediate` with a closure isolated to the controller runs right here, on the
    /// controller's executor, up to the call's first real suspension: when this returns, the
    /// state machine has decided and every action has been carried out. A plain `Task` would
    /// reach the actor at some later, unknown time.
    static func call(_ call: ModelCall, on feed: isolated RowFeed, number: Int, into outcomes: CallOutcomes) {
        Task.immediate {
            let result = switch call {
            case .refresh: await feed.refresh()
            case .refreshFrom(let cursor): await feed.refresh(from: cursor)
            case .loadMore: await feed.loadMore()
            case .loadPrevious: await feed.loadPrevious()
            case .retry(let side): await feed.retry(side)
            case .invalidate: await feed.invalidate()
            }
            outcomes.record(number, result, seeingVersion: feed.currentSnapshot.version)
        }
    }
}
