/// A weak reference to an object, set once by the object's initializer.
///
/// The controller's fetch and timer tasks reach the controller through it, so that a task in
/// flight does not keep a released controller alive. Capturing `[weak self]` in each task would
/// do the same, but costs a heap box per task; this reference is made once per controller.
///
/// `@unchecked Sendable` is safe: `target` is written exactly once, by ``set(_:)``, inside the
/// owning object's initializer, before the object (and so this reference) is shared with any
/// task or thread; every later access only reads it. Publishing the object to another thread
/// goes through a synchronizing hand-off (task creation, an actor hop), which orders that write
/// before every read. Weak loads and stores are themselves atomic in the Swift runtime, so the
/// reference being cleared when the target is released needs no lock either.
@usableFromInline
final class WeakReference<Target: AnyObject & Sendable>: @unchecked Sendable {
    @usableFromInline weak var target: Target?

    @usableFromInline init() {}

    /// Sets the target; call once, before the reference is shared.
    @usableFromInline func set(_ target: Target) {
        self.target = target
    }
}
