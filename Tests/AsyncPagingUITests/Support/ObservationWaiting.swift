import Observation

/// Suspends until `condition` holds on the main actor.
///
/// This is a rendezvous, not a poll: while the condition is false, the caller sleeps until one
/// of the observable properties the condition read changes (`withObservationTracking` fires on
/// the change), then reads it again. No timer, no yield. The check and the registration run in
/// one main-actor turn, so a change cannot slip between them.
@MainActor
func waitUntil(_ condition: @MainActor () -> Bool) async {
    while !condition() {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            withObservationTracking {
                _ = condition()
            } onChange: {
                continuation.resume()
            }
        }
    }
}
