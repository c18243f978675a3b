/// The hash the duplicate filter's index (``_IdentityIndex``) gives an id.
///
/// Integer ids (`Int`, `Int64`, `UInt64`, `UInt`, `Int32`, `UInt32`: the usual database and
/// API ids) get a seeded multiply-xorshift mix of their bits (~10 instructions); every other id
/// type gets the standard library's hash (seeded SipHash-1-3, ~100–190 instructions for one
/// word). The mix is a bijection of the 64-bit value, so two distinct integer ids never have
/// the same full hash: only the table's bucket (the hash's top bits) and tag (its low bits) can
/// meet, as with any hash.
///
/// What it gives up: SipHash is a keyed pseudo-random function, so without the key nobody can
/// choose ids whose hashes collide, even after watching the table's behaviour; a multiply-xorshift
/// mix is not, so ids made to collide in the table (hash flooding: every insert probing a long
/// run) are easier to find for someone who learns enough about the seed. How it is mitigated:
/// the seed is per process and secret, derived from the standard library's own random
/// per-process hashing seed (so `SWIFT_DETERMINISTIC_HASHING` makes it fixed, as it does for
/// `Hasher`); ids are xored with it before mixing, so which ids collide differs from process to
/// process and cannot be precomputed. The index only ever holds the ids of one feed's list,
/// which its source supplies, so an attacker would have to control the source's ids as well.
/// Ids of other types (strings, UUIDs, composite keys) keep SipHash.
@usableFromInline
enum _IdentityHash {
    /// The hash of `key`: the seeded mix for the integer types above, `Hashable`'s otherwise.
    /// In specialized code the type test folds away.
    @inlinable @inline(__always) static func hash<Key: Hashable>(_ key: Key) -> Int {
        hash(key, seed: isInteger(Key.self) ? _identityHashSeed : 0)
    }

    /// ``hash(_:)`` with the seed read already (`_identityHashSeed`; a loop reads it once).
    @inlinable @inline(__always) static func hash<Key: Hashable>(_ key: Key, seed: UInt64) -> Int {
        if Key.self == Int.self { return mix(UInt64(UInt(bitPattern: unsafeBitCast(key, to: Int.self))), seed: seed) }
        if Key.self == Int64.self { return mix(UInt64(bitPattern: unsafeBitCast(key, to: Int64.self)), seed: seed) }
        if Key.self == UInt64.self { return mix(unsafeBitCast(key, to: UInt64.self), seed: seed) }
        if Key.self == UInt.self { return mix(UInt64(unsafeBitCast(key, to: UInt.self)), seed: seed) }
        if Key.self == Int32.self { return mix(UInt64(UInt32(bitPattern: unsafeBitCast(key, to: Int32.self))), seed: seed) }
        if Key.self == UInt32.self { return mix(UInt64(unsafeBitCast(key, to: UInt32.self)), seed: seed) }
        return key._rawHashValue(seed: 0)
    }

    /// Whether ids of `type` get the seeded mix.
    @inlinable @inline(__always) static func isInteger<Key>(_ type: Key.Type) -> Bool {
        type == Int.self || type == Int64.self || type == UInt64.self || type == UInt.self || type == Int32.self
            || type == UInt32.self
    }

    /// A seeded bijective mix of 64 bits (xor with the seed, then two rounds of xorshift and
    /// multiply, as in `splitmix64`'s finalizer): every output bit depends on every input bit,
    /// which the index needs in its top bits (the bucket), its low bits (the tag) and the bits
    /// below the top 32 (the fraction field).
    @inlinable @inline(__always) static func mix(_ value: UInt64, seed: UInt64) -> Int {
        var bits = value ^ seed
        bits = (bits ^ (bits &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ (bits &>> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: bits ^ (bits &>> 31))
    }
}

/// The per-process seed of ``_IdentityHash/mix(_:)``: made from the standard library's
/// per-process hashing seed (random unless `SWIFT_DETERMINISTIC_HASHING` is set), once.
@usableFromInline let _identityHashSeed: UInt64 = {
    var hasher = Hasher()
    hasher.combine(0x6964_656E_7469_7479 as UInt64) // "identity"
    let first = UInt64(UInt(bitPattern: hasher.finalize()))
    var second = Hasher()
    second.combine(first)
    return first << 32 ^ UInt64(UInt(bitPattern: second.finalize()))
}()
