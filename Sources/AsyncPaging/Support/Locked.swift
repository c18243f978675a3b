#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock: the package's one lock, used wherever `Synchronization.Mutex` would
/// be.
///
/// It is a `pthread_mutex_t`, which ThreadSanitizer understands. `Mutex` on Linux hands a
/// contended lock over through priority-inheriting futexes inside the (uninstrumented) standard
/// library, so ThreadSanitizer sees no ordering between two holders and reports every contended
/// access to the protected value as a data race, drowning real races in false ones.
///
/// `@unchecked Sendable` is safe: `state` is private and read or written only inside
/// `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on the one mutex this
/// instance owns, so every access is mutually exclusive and ordered; the mutex itself is
/// allocated once, never moved (a pthread mutex must not be), and destroyed only in `deinit`,
/// when no other reference exists.
@usableFromInline package final class Locked<State: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline var state: State

    @usableFromInline package init(_ state: consuming State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
