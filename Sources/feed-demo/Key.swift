/// A key the interactive mode understands.
enum Key: Equatable, Sendable {
    case up, down, pageUp, pageDown, home, end
    /// A printable ASCII character.
    case character(Character)
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// A lone Escape, or a sequence the demo does not use.
    case other
}
