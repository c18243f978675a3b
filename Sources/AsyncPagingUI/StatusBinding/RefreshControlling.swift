import AsyncPaging

/// Refresh controls that carry out ``RefreshCommand``s: conform a screen, a table view or a
/// view state once, and every feed binds to it in one line with `bind(to:)` on the stream of
/// ``AsyncPaging/FeedController/refreshCommands``.
///
/// ```swift
/// extension UITableView: RefreshControlling {
///     public func perform(_ command: RefreshCommand) {
///         switch command {
///         case .beginHeaderRefresh: mj_header?.beginRefreshing()
///         // …one line per command
///         }
///     }
/// }
/// ```
@MainActor
public protocol RefreshControlling: AnyObject {
    /// Updates the controls for `command`.
    func perform(_ command: RefreshCommand)
}

extension AsyncStream where Element == RefreshCommand {
    /// Performs every command of the stream on `controls`, on the main actor, until the stream
    /// finishes (the controller closed) or the calling task is cancelled.
    ///
    /// ```swift
    /// Task { await feed.refreshCommands.bind(to: tableView) }
    /// ```
    @MainActor
    public func bind(to controls: some RefreshControlling) async {
        for await command in self { controls.perform(command) }
    }
}
