/// Why a ``FeedState`` cannot be restored: thrown by its initializer, and so by decoding one
/// (a `DecodingError` says the input is not a feed state at all: truncated, wrong types).
public enum FeedStateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A state needs at least one page (an empty list is one page without items).
    case noPages
    /// Page `pageIndex` follows a page whose `next` is `nil`: nothing can come after that page,
    /// so the pages are not one list.
    case pageAfterEnd(pageIndex: Int)
    /// Page `pageIndex` was fetched with a cursor an earlier page was fetched with (each page
    /// after the first is fetched with its predecessor's `next`): the list would loop. The text
    /// is the cursor.
    case repeatedCursor(pageIndex: Int, cursor: String)
    /// The scroll anchor is not an index of the list's items.
    case anchorOutOfRange(index: Int, itemCount: Int)

    /// What is wrong with the state, in words.
    public var description: String {
        switch self {
        case .noPages:
            "a feed state needs at least one page"
        case .pageAfterEnd(let pageIndex):
            "page \(pageIndex) follows a page that has no next cursor"
        case .repeatedCursor(let pageIndex, let cursor):
            "page \(pageIndex) was fetched with the cursor \(cursor), which an earlier page was fetched with"
        case .anchorOutOfRange(let index, let itemCount):
            "the anchor index \(index) is outside the list's \(itemCount) items"
        }
    }
}
