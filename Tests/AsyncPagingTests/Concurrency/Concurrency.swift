import Testing

/// The real-clock tests of issue 11: real threads, real cancellation, bounded in time, each
/// guarded by a ``StallDetector``. Every suite here is nested in this one, so that
/// `swift test --filter Concurrency` runs them all (as `.ci/run` does under the thread
/// sanitizer). ``ConcurrencySettings`` lists the environment variables for longer runs.
///
/// Serialized: the suites measure throughput-free properties, but the memory tests' exit tests
/// each block a thread of the cooperative pool while they wait for their child (on 2 cores,
/// half of it), which would starve a stress test running beside them.
@Suite("Concurrency", .serialized)
enum Concurrency {}
