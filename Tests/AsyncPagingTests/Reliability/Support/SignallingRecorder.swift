import AsyncPaging

/// Records a stream, like `StreamRecorder`, and bumps a ``Progress`` on every value and when
/// the stream finishes, so a run can check each value as it comes.
final class SignallingRecorder<Element: Sendable>: Sendable {
    private struct State {
        var values: [Element] = []
        var isFinished = false
    }

    private let state = Locked(State())
    private let reader = Locked<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Element>, progress: Progress) {
        let task = Task { [weak self] in
            for await value in stream {
                guard let self else { return }
                self.state.withLock { $0.values.append(value) }
                progress.signal()
            }
            self?.state.withLock { $0.isFinished = true }
            progress.signal()
        }
        reader.withLock { $0 = task }
    }

    deinit {
        reader.withLock { $0?.cancel() }
    }

    var values: [Element] { state.withLock { $0.values } }
    var isFinished: Bool { state.withLock { $0.isFinished } }
}
