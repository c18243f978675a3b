import Testing

struct DeadlineExceeded: Error, CustomStringConvertible {
    let seconds: Int
    let what: String
    var description: String { "stalled: \(what) did not finish within \(seconds) s" }
}

/// Runs `body`, failing with a message (instead of hanging) if it takes longer than `seconds`
/// on the real clock: the stall detector of these real-network tests.
func withDeadline<T: Sendable>(
    _ seconds: Int = 20, _ what: String = "the test",
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await ContinuousClock().sleep(for: .seconds(seconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw DeadlineExceeded(seconds: seconds, what: what)
        }
        return value
    }
}
