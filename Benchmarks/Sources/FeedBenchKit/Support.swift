/// A mutable count that a synchronous Combine sink writes and its owner reads, on one thread.
final class Counter {
    var value = 0
}

/// The time from `start` to now.
@inline(__always)
func elapsed(since start: ContinuousClock.Instant) -> Duration {
    ContinuousClock.now - start
}
