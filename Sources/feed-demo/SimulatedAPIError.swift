/// The errors the simulated API answers with.
enum SimulatedAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A failure drawn from `--failure-rate`.
    case serviceUnavailable
    /// A failure asked for by the script or by the `f` key.
    case injected

    var description: String {
        switch self {
        case .serviceUnavailable: "HTTP 503 (simulated)"
        case .injected: "HTTP 500 (injected)"
        }
    }
}
