import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What wakes the interactive loop: bytes typed (keys, mouse reports), the end of the input,
/// or a frame tick (the spinner, the release of a pull).
enum Input: Sendable {
    case bytes([UInt8])
    case endOfInput
    case tick
}

/// stdin's bytes and a frame tick, as one stream the main actor reads.
///
/// stdin is read by a dispatch read source on a queue of its own, so no thread blocks waiting
/// for a key; the tick is a task sleeping on the continuous clock. Used from the main actor.
final class InputSource {
    let inputs: AsyncStream<Input>
    private let continuation: AsyncStream<Input>.Continuation
    private let reader: any DispatchSourceRead
    private let ticker: Task<Void, Never>

    init(frame: Duration) {
        (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let continuation = continuation
        reader = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: DispatchQueue(label: "feed-demo.stdin"))
        reader.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                continuation.yield(.bytes(Array(buffer[..<count])))
            } else if count == 0 {
                continuation.yield(.endOfInput) // the loop ends and stops the source
            } // count < 0: EINTR and the like; the source fires again
        }
        reader.resume()
        ticker = Task.detached {
            let clock = ContinuousClock()
            while true {
                do { try await clock.sleep(for: frame) } catch { return }
                continuation.yield(.tick)
            }
        }
    }

    /// Stops reading and ticking, and finishes the stream.
    func stop() {
        reader.cancel()
        ticker.cancel()
        continuation.finish()
    }
}
