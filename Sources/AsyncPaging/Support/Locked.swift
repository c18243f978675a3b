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
/// The value and the mutex live in one heap object (``_LockedBuffer``: the value as the header
/// of a `ManagedBuffer`, the mutex as its one tail-allocated element), so a lock costs one
/// allocation, not two; a controller has three.
///
/// Never yield to a stream, resume a continuation or finish a stream inside `withLock`: decide
/// there, act after it returns (see `FeedBroadcaster`).
///
/// `@unchecked Sendable` is safe (`ManagedBuffer`, under the storage, opts out of `Sendable`):
/// the only reference to the storage is this `let`, and the storage's value is read or written
/// only inside `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on the mutex
/// the storage owns, so every access from any thread is mutually exclusive and ordered. The
/// mutex is initialized once when the storage is made, lives in the storage's own tail
/// allocation (a class instance never moves, as a pthread mutex must not), and is destroyed
/// only in its `deinit`, when no reference is left.
@usableFromInline package struct Locked<State>: @unchecked Sendable {
    @usableFromInline let buffer: _LockedBuffer<State>

    @inlinable package init(_ state: State) {
        buffer = _LockedBuffer.make(state)
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable package func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try buffer.withLock(body)
    }
}

/// The storage of a ``Locked``: the protected value as the header, the mutex as the element.
/// Reached only through ``Locked``, whose comment says why sharing it is safe.
@usableFromInline final class _LockedBuffer<State>: ManagedBuffer<State, pthread_mutex_t> {
    @inlinable static func make(_ state: State) -> _LockedBuffer<State> {
        let buffer = unsafeDowncast(create(minimumCapacity: 1) { _ in state }, to: _LockedBuffer<State>.self)
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let result = pthread_mutex_init(mutex, nil)
            precondition(result == 0, "pthread_mutex_init failed: \(result)")
        }
        return buffer
    }

    deinit {
        withUnsafeMutablePointerToElements { mutex in
            _ = pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }

    @inlinable func withLock<Result, Failure: Error>(
        _ body: (inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeMutablePointers { (state, mutex) throws(Failure) -> Result in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
