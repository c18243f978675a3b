#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal settings to put back when a signal ends the program while in raw mode.
///
/// `nonisolated(unsafe)` is safe here: the pointer itself never changes (allocated once, never
/// freed). Its pointee is written only by ``RawMode/enable()``, on the main thread, *before*
/// `signal()` installs the handlers that read it; the handlers only read it, and the main
/// thread never writes it again. The `signal()` system call orders that one write before any
/// handler run.
nonisolated(unsafe) private let savedTerminalSettings = UnsafeMutablePointer<termios>.allocate(capacity: 1)

/// Ends the program on SIGINT, SIGTERM or SIGHUP with the terminal restored. Only
/// async-signal-safe calls: `tcsetattr`, `write`, `_exit`.
private func restoreTerminalAndExit(_ signal: Int32) {
    tcsetattr(STDIN_FILENO, TCSAFLUSH, savedTerminalSettings)
    let leave = Terminal.leaveScreen
    _ = write(STDOUT_FILENO, leave.utf8Start, leave.utf8CodeUnitCount)
    _exit(128 + signal)
}

/// Raw terminal mode: keys arrive one by one, unechoed, Ctrl-C as a byte; the program draws on
/// the alternate screen. ``restore()`` puts everything back, and so does a terminating signal.
///
/// Used from the main thread only.
final class RawMode {
    private var original = termios()
    private var isEnabled = false

    /// Enters raw mode and the alternate screen; `false` when stdin is not a terminal.
    func enable() -> Bool {
        guard !isEnabled, tcgetattr(STDIN_FILENO, &original) == 0 else { return false }
        savedTerminalSettings.initialize(to: original)
        var raw = original
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1
            controlCharacters[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else { return false }
        isEnabled = true
        // Ctrl-C arrives as a key (ISIG is off); these catch a `kill` or a closed terminal.
        signal(SIGINT, restoreTerminalAndExit)
        signal(SIGTERM, restoreTerminalAndExit)
        signal(SIGHUP, restoreTerminalAndExit)
        Terminal.output(Terminal.enterScreen)
        return true
    }

    /// Leaves the alternate screen and restores the terminal settings; safe to call twice.
    func restore() {
        guard isEnabled else { return }
        isEnabled = false
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
        signal(SIGHUP, SIG_DFL)
        Terminal.output(Terminal.leaveScreen.description)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
    }

    deinit {
        restore()
    }
}
