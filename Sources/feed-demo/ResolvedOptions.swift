/// The options a mode runs with.
struct ResolvedOptions: Sendable, Equatable {
    var mode: DemoOptions.Mode
    var settings: SimulatedFeedAPI.Settings
    var pageSize: Int
    var prefetchDistance: Int
    /// `--url`: the real HTTP API to page, or nil for the simulated one.
    var http: HTTPFeed?
    /// `--open-at`: where the simulated feed opens, or nil for its first page.
    var openAt: Int? = nil
    /// `--all`: list every item of ``http`` through the item sequence.
    var listsAll = false
}
