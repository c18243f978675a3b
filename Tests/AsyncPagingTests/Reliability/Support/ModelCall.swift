/// A call a randomized run makes on the controller.
enum ModelCall: Sendable, Hashable, CustomStringConvertible {
    case refresh, loadMore, retry

    var description: String {
        switch self {
        case .refresh: "refresh()"
        case .loadMore: "loadMore()"
        case .retry: "retry()"
        }
    }
}
