/// A ``FeedSessionRegistry`` limit that cannot work.
public enum FeedSessionRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The idle timeout must be positive.
    case nonPositiveIdleTimeout(Duration)
    /// The maximum count must be at least 1.
    case invalidMaximumCount(Int)

    /// A readable description, for logs.
    public var description: String {
        switch self {
        case .nonPositiveIdleTimeout(let timeout): "the idle timeout must be positive, not \(timeout)"
        case .invalidMaximumCount(let count): "the maximum session count must be at least 1, not \(count)"
        }
    }
}
