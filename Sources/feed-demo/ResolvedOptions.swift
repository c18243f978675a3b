/// The options a mode runs with.
struct ResolvedOptions: Sendable, Equatable {
    var mode: DemoOptions.Mode
    var settings: SimulatedFeedAPI.Settings
    var pageSize: Int
    var prefetchDistance: Int
}
