/// One instruction for a screen's refresh controls, derived from a feed's events; see
/// ``AsyncPaging/FeedController/refreshCommands``.
///
/// Each case maps to one call of a typical refresh-control library (MJRefresh names shown):
///
/// | command | header / footer call |
/// | --- | --- |
/// | ``beginHeaderRefresh`` | `header.beginRefreshing()` |
/// | ``endHeaderRefresh`` | `header.endRefreshing()` |
/// | ``beginFooterRefresh`` | `footer.beginRefreshing()` |
/// | ``endFooterRefresh`` | `footer.endRefreshing()` |
/// | ``noMoreData`` | `footer.endRefreshingWithNoMoreData()` |
/// | ``resetNoMoreData`` | `footer.resetNoMoreData()` |
public enum RefreshCommand: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A refresh started: show the header spinner.
    case beginHeaderRefresh
    /// The refresh ended, whatever its outcome: hide the header spinner.
    case endHeaderRefresh
    /// A load-more started: show the footer spinner.
    case beginFooterRefresh
    /// The load-more ended, whatever its outcome: hide the footer spinner.
    case endFooterRefresh
    /// The last page has been loaded: show "no more data" in the footer.
    case noMoreData
    /// More data follows again (a refresh brought a page that is not the last): make the
    /// footer usable again.
    case resetNoMoreData

    /// The case name, e.g. `endHeaderRefresh`.
    public var description: String {
        switch self {
        case .beginHeaderRefresh: "beginHeaderRefresh"
        case .endHeaderRefresh: "endHeaderRefresh"
        case .beginFooterRefresh: "beginFooterRefresh"
        case .endFooterRefresh: "endFooterRefresh"
        case .noMoreData: "noMoreData"
        case .resetNoMoreData: "resetNoMoreData"
        }
    }
}
