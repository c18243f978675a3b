import AsyncPaging

extension FeedController {
    /// The feed's refresh controls as a stream of ``AsyncPagingUI/RefreshCommand``s: bind a screen's header
    /// and footer with one `for await` loop.
    ///
    /// ```swift
    /// for await command in feed.refreshCommands { controls.perform(command) }
    /// ```
    ///
    /// Each access is a new subscription to ``FeedController/events``, made before the
    /// property returns, so no event is missed. The stream first tells the controller's
    /// current state: ``AsyncPagingUI/RefreshCommand/noMoreData`` at the end of the data, and a begin for a
    /// side that is loading. Then every event is translated by a ``AsyncPagingUI/RefreshCommandMapper``, in
    /// order and without loss. It finishes when the controller closes, after the end commands
    /// of the loads that closing cancelled.
    public nonisolated var refreshCommands: AsyncStream<RefreshCommand> {
        // Subscribe first, then read the status: every change after the subscription is also
        // an event in it, so the mapper ends up where the controller is.
        let events = self.events
        var mapper = RefreshCommandMapper()
        let initial = mapper.start(status: currentStatus)
        let (stream, continuation) = AsyncStream.makeStream(of: RefreshCommand.self, bufferingPolicy: .unbounded)
        for command in initial { continuation.yield(command) }
        let pump = Task {
            for await event in events {
                for command in mapper.commands(for: event) { continuation.yield(command) }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in pump.cancel() }
        return stream
    }
}
