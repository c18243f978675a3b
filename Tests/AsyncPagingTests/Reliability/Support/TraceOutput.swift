import Foundation

/// Writes trace lines to standard error, unbuffered, so that they survive a run that is killed
/// while it waits.
enum TraceOutput {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
