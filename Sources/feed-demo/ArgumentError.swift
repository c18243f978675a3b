/// A command line that cannot run; printed on stderr, exit code 2.
struct ArgumentError: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
