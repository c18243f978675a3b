/// The engine and the reference model disagree, or an invariant broke.
struct ModelMismatch: Error, CustomStringConvertible {
    var description: String
}
