/// The answer to ``FeedController/loadAll(refreshingFirst:maximumPages:maximumItems:)``: how many
/// pages and items it loaded, and how it ended.
public struct LoadAllResult: Sendable, Equatable, CustomStringConvertible {
    /// How a `loadAll` ended.
    public enum Ending: Sendable, Equatable, CustomStringConvertible {
        /// Both ends of the data were reached: the last page named no `next`, the first no
        /// `previous`.
        case reachedEnd
        /// The `maximumPages` or `maximumItems` given to the call was reached first.
        case reachedLimit
        /// A load failed: the first page (``FeedSide/refresh``, when the feed had none) or a
        /// page at an end; the list keeps the pages loaded before.
        case failed(FeedFailure)
        /// A load was cancelled (a refresh from elsewhere, ``FeedController/close()``, ...).
        case cancelled(CancellationReason)
        /// A load started nothing, for `reason` (say ``IgnoreReason/stoppedByGuard`` after a
        /// repeated cursor, until `retry()` or a refresh).
        case ignored(IgnoreReason)
        /// The calling task was cancelled: the load in flight ran to its end (other callers
        /// may wait on it) and no further load was started.
        case callerCancelled

        /// The ending, for logs.
        public var description: String {
            switch self {
            case .reachedEnd: "reachedEnd"
            case .reachedLimit: "reachedLimit"
            case .failed(let failure): "failed(\(failure))"
            case .cancelled(let reason): "cancelled(\(reason))"
            case .ignored(let reason): "ignored(\(reason))"
            case .callerCancelled: "callerCancelled"
            }
        }
    }

    /// The pages this call loaded (the first page included when it loaded it or joined its
    /// load; an empty page followed by the engine not counted).
    public var pagesLoaded: Int
    /// The items those pages put in the list.
    public var itemsApplied: Int
    /// The items those pages left out as duplicates (``DuplicatePolicy/drop``).
    public var droppedDuplicates: Int
    /// How the call ended.
    public var ending: Ending

    /// Creates a result.
    public init(pagesLoaded: Int, itemsApplied: Int, droppedDuplicates: Int = 0, ending: Ending) {
        self.pagesLoaded = pagesLoaded
        self.itemsApplied = itemsApplied
        self.droppedDuplicates = droppedDuplicates
        self.ending = ending
    }

    /// Whether both ends of the data were reached.
    public var reachedEnd: Bool { ending == .reachedEnd }

    /// The failure the call ended with, if it ended with one.
    public var failure: FeedFailure? {
        if case .failed(let failure) = ending { failure } else { nil }
    }

    /// The counts and the ending, for logs.
    public var description: String {
        "loadAll: \(pagesLoaded) pages, \(itemsApplied) items, \(droppedDuplicates) duplicates dropped, \(ending)"
    }
}
