/// A key (or a mouse wheel notch) the interactive mode understands.
enum Key: Equatable, Sendable {
    case up, down, pageUp, pageDown, home, end
    /// The mouse wheel turned one notch (xterm mouse reporting).
    case wheelUp, wheelDown
    /// A printable ASCII character.
    case character(Character)
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// A mouse click or drag: ignored.
    case mouse
    /// A lone Escape, or a sequence the demo does not use.
    case other
}
