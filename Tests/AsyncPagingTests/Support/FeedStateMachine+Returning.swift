@testable import AsyncPaging

/// The state machine's calls in a returning form, so tests read "call, then look at actions".
extension FeedStateMachine {
    mutating func refreshRequested() -> (Decision, [Action]) {
        var actions: [Action] = []
        return (refreshRequested(into: &actions), actions)
    }

    mutating func loadMoreRequested() -> (Decision, [Action]) {
        var actions: [Action] = []
        return (loadMoreRequested(into: &actions), actions)
    }

    mutating func retryRequested() -> (Decision, [Action]) {
        var actions: [Action] = []
        return (retryRequested(into: &actions), actions)
    }

    mutating func closeRequested() -> [Action] {
        var actions: [Action] = []
        closeRequested(into: &actions)
        return actions
    }

    mutating func fetchSucceeded(_ id: LoadID, attempt: Int, step: Int = 0, itemCount: Int, next: Cursor?) -> [Action] {
        var actions: [Action] = []
        fetchSucceeded(id, attempt: attempt, step: step, itemCount: itemCount, next: next, into: &actions)
        return actions
    }

    mutating func fetchFailed(_ id: LoadID, attempt: Int, error: any Error) -> [Action] {
        var actions: [Action] = []
        fetchFailed(id, attempt: attempt, error: error, into: &actions)
        return actions
    }

    mutating func timeoutElapsed(_ id: LoadID, attempt: Int, step: Int = 0) -> [Action] {
        var actions: [Action] = []
        timeoutElapsed(id, attempt: attempt, step: step, into: &actions)
        return actions
    }

    mutating func backoffElapsed(_ id: LoadID, attempt: Int) -> [Action] {
        var actions: [Action] = []
        backoffElapsed(id, attempt: attempt, into: &actions)
        return actions
    }
}
