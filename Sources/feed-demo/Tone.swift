#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a piece of text is shown: the state it tells of, not a colour.
enum Tone: Equatable, Sendable {
    case plain
    /// A failure: red.
    case failure
    /// A cancellation: yellow.
    case cancellation
    /// The end of the data, and other quiet facts: dim.
    case quiet
    /// A pull gesture that will act on release: bold.
    case emphasis

    /// The escape sequence that starts the tone, with colours on.
    var escape: String {
        switch self {
        case .plain: ""
        case .failure: "\u{1B}[31m"
        case .cancellation: "\u{1B}[33m"
        case .quiet: "\u{1B}[2m"
        case .emphasis: "\u{1B}[1m"
        }
    }

    /// Whether output to `descriptor` gets colours: it is a terminal, and `NO_COLOR` is unset or
    /// empty (https://no-color.org).
    static func colorsEnabled(for descriptor: Int32) -> Bool {
        guard isatty(descriptor) == 1 else { return false }
        guard let value = getenv("NO_COLOR") else { return true }
        return value.pointee == 0
    }
}
