@testable import AsyncPaging
import Testing

/// The state machine's calls in a returning form, so tests read "call, then look at actions".
extension FeedStateMachine where Item: Equatable {
    mutating func refreshRequested(from cursor: Cursor? = nil) -> (Decision, [Action]) {
        var actions: [Action] = []
        return (refreshRequested(from: cursor, into: &actions), actions)
    }

    mutating func loadMoreRequested() -> (Decision, [Action]) {
        var actions: [Action] = []
        return (edgeLoadRequested(.loadMore, into: &actions), actions)
    }

    mutating func loadPreviousRequested() -> (Decision, [Action]) {
        var actions: [Action] = []
        return (edgeLoadRequested(.loadPrevious, into: &actions), actions)
    }

    mutating func retryRequested(_ side: FeedSide? = nil) -> (Decision, [Action]) {
        var actions: [Action] = []
        return (retryRequested(side, into: &actions), actions)
    }

    mutating func closeRequested() -> [Action] {
        var actions: [Action] = []
        closeRequested(into: &actions)
        return actions
    }

    /// The page arrives; if the machine asks for it to be applied, it is applied as the
    /// controller would (`applied` items, `dropped` duplicates) and the machine's answer follows.
    mutating func fetchSucceeded(
        _ id: LoadID, attempt: Int, step: Int = 0, page: Page<Item, Cursor>, applied: Int? = nil, dropped: Int = 0
    ) -> [Action] {
        var actions: [Action] = []
        fetchSucceeded(id, attempt: attempt, step: step, page: page, into: &actions)
        if actions.contains(where: { if case .applyPage = $0 { true } else { false } }) {
            let landed = takeLandedPage()
            #expect(landed?.items == page.items && landed?.previous == page.previous && landed?.next == page.next,
                    "the page to apply is the page that arrived")
            pageApplied(id, applied: applied ?? page.items.count, dropped: dropped, into: &actions)
        }
        return actions
    }

    mutating func fetchFailed(_ id: LoadID, attempt: Int, step: Int = 0, error: any Error) -> [Action] {
        var actions: [Action] = []
        fetchFailed(id, attempt: attempt, step: step, error: error, into: &actions)
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
