/// Turns the bytes of a raw terminal into ``Key``s, escape sequences and SGR mouse reports
/// (wheel notches) included.
///
/// An escape sequence split across two reads is kept until the next bytes arrive, or until
/// ``flush()`` (called when no input came for a moment) gives it up as a lone Escape.
struct KeyDecoder {
    private var pending: [UInt8] = []

    mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            let byte = pending[index]
            if byte == 0x1B {
                guard let (key, length) = escapeSequence(at: index) else { break } // incomplete
                keys.append(key)
                index += length
                continue
            }
            keys.append(KeyDecoder.key(for: byte))
            index += 1
        }
        pending.removeFirst(index)
        return keys
    }

    /// Gives up on an incomplete escape sequence.
    mutating func flush() -> [Key] {
        defer { pending = [] }
        return pending.isEmpty ? [] : [.other]
    }

    private static func key(for byte: UInt8) -> Key {
        switch byte {
        case 0x03: .interrupt
        case 0x04: .endOfInput
        case 0x20..<0x7F: .character(Character(Unicode.Scalar(byte)))
        default: .other
        }
    }

    /// The key at `start` (an Escape) and its length in bytes, or `nil` if more bytes are needed.
    private func escapeSequence(at start: Int) -> (Key, Int)? {
        let rest = pending[(start + 1)...]
        guard let introducer = rest.first else { return nil }
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (.other, 1) }
        // Parameters (digits and ';'), then a final byte from '@' to '~'.
        var index = rest.startIndex + 1
        while index < pending.endIndex, (0x30...0x3F).contains(pending[index]) { index += 1 }
        guard index < pending.endIndex else { return nil }
        let parameters = String(decoding: pending[(rest.startIndex + 1)..<index], as: UTF8.self)
        let final = Character(Unicode.Scalar(pending[index]))
        let length = index - start + 1
        if parameters.hasPrefix("<") {
            // SGR mouse report: ESC [ < button ; column ; row (M press, m release).
            let button = parameters.dropFirst().split(separator: ";").first.flatMap { Int($0) }
            switch (button, final) {
            case (64, "M"): return (.wheelUp, length)
            case (65, "M"): return (.wheelDown, length)
            default: return (.mouse, length)
            }
        }
        switch (final, parameters) {
        case ("A", _): return (.up, length)
        case ("B", _): return (.down, length)
        case ("H", _), ("~", "1"), ("~", "7"): return (.home, length)
        case ("F", _), ("~", "4"), ("~", "8"): return (.end, length)
        case ("~", "5"): return (.pageUp, length)
        case ("~", "6"): return (.pageDown, length)
        default: return (.other, length)
        }
    }
}
