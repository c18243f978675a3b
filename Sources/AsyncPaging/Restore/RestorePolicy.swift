/// Whether a controller created from a saved ``FeedState`` refreshes after showing it.
///
/// A restored controller publishes the saved list at once, whatever the policy; the policy
/// decides only whether a refresh then starts. The refresh starts where the controller's
/// `refreshStart:` says (``RestoredRefreshStart``): by default from the restored list's own
/// first page, so that a list saved in the middle of the data refreshes where it was; with
/// ``RestoredRefreshStart/initialCursor``, from the controller's `initialCursor` (the first
/// page of the data by default), as the initial load would.
public enum RestorePolicy: Sendable {
    /// Show the saved list and stay: nothing is fetched until the app asks.
    case never
    /// Show the saved list at once, then refresh (the saved list stays on screen until the
    /// refresh's page lands and replaces it — or, under ``RefreshMode/mergeAtHead``, goes on top).
    case always
    /// Refresh when the state is older than `maximumAge` on `clock` (real time by default):
    /// its age is `clock.timeSinceEpoch - savedAt`. A state without ``FeedState/savedAt``
    /// (unknown age) or with a negative age (the clock went back, or the state came from a
    /// clock ahead of this one) counts as stale and is refreshed. An age equal to `maximumAge`
    /// is fresh.
    case ifOlderThan(Duration, clock: any EpochClock = WallClock())

    /// Whether a state saved at `savedAt` is refreshed when restored.
    public func refreshes(savedAt: Duration?) -> Bool {
        switch self {
        case .never:
            return false
        case .always:
            return true
        case .ifOlderThan(let maximumAge, let clock):
            guard let savedAt else { return true }
            let age = clock.timeSinceEpoch.saturatingSubtracting(savedAt) // any saved time: no trap
            return age < .zero || age > maximumAge
        }
    }
}
