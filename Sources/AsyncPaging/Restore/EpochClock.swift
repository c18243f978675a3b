/// A clock whose readings mean the same in every process: a duration since a fixed epoch.
///
/// ``FeedController/exportState(anchorIndex:savedBy:)`` stamps ``FeedState/savedAt`` with
/// one, and ``RestorePolicy/ifOlderThan(_:clock:)`` reads one to tell how old a restored state
/// is — possibly in another process, or on another machine, than the one that saved it. A
/// `ContinuousClock` or `SuspendingClock` cannot do that: their instants count from an
/// unspecified point (often the boot) and mean nothing elsewhere. ``WallClock`` (the system's
/// real time since 1970) conforms, and so does the test kit's `TestClock` (its epoch is its
/// start), so that a test decides how old a state is.
public protocol EpochClock: Sendable {
    /// The time since this clock's epoch, now.
    var timeSinceEpoch: Duration { get }
}
