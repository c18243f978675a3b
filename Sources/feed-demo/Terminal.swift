#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C-library side of the terminal: detection, size, raw writes, and the raw mode.
enum Terminal {
    /// Whether stdin and stdout are both terminals, so that the interactive mode can run.
    static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }

    /// The terminal's rows and columns, or `nil` when it does not say.
    static func size() -> (rows: Int, columns: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_row > 0, size.ws_col > 0 else {
            return nil
        }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Writes all of `text` to stdout, unbuffered.
    static func output(_ text: String) {
        writeAll(text, to: STDOUT_FILENO)
    }

    /// Writes all of `text` to stderr, unbuffered.
    static func writeError(_ text: String) {
        writeAll(text, to: STDERR_FILENO)
    }

    private static func writeAll(_ text: String, to descriptor: Int32) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    // MARK: Escape sequences

    /// Switches to the alternate screen, hides the cursor, clears, and turns on xterm mouse
    /// reporting in SGR form (`?1000h`: buttons and wheel; `?1006h`: `ESC [ < b ; x ; y M`).
    static let enterScreen = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H\u{1B}[?1000h\u{1B}[?1006h"
    /// Turns mouse reporting off, shows the cursor and returns to the normal screen, as it was.
    static let leaveScreen: StaticString = "\u{1B}[?1006l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// Moves the cursor to `row` (0-based) and writes `line` in its tones (in inverse video
    /// across the whole width for a bar), clearing the rest of the row.
    static func line(_ line: ScreenRenderer.Row, atRow row: Int, width: Int, colors: Bool) -> String {
        var output = "\u{1B}[\(row + 1);1H"
        let bar = line.isBar ? "\u{1B}[7m" : ""
        output += bar
        for segment in line.segments {
            if colors, segment.tone != .plain {
                output += segment.tone.escape + segment.text + "\u{1B}[0m" + bar
            } else {
                output += segment.text
            }
        }
        if line.isBar { output += String(repeating: " ", count: max(width - line.text.count, 0)) }
        return output + "\u{1B}[0m\u{1B}[K"
    }
}
