import Foundation

/// The `Retry-After` header field (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date.
public enum RetryAfter {
    /// The delay `value` asks for, measured from `now`.
    ///
    /// Accepts delay-seconds (`"120"`) and the three HTTP-date forms: IMF-fixdate
    /// (`"Sun, 06 Nov 1994 08:49:37 GMT"`), RFC 850 (`"Sunday, 06-Nov-94 08:49:37 GMT"`) and
    /// asctime (`"Sun Nov  6 08:49:37 1994"`). `"0"` and a date in the past give zero (retry
    /// at once). A delay longer than ``longest`` (seconds or a far date) gives ``longest``.
    /// Anything else (negative or fractional seconds, an unknown date form) gives nil. Never
    /// traps. The retry policy caps the delay again by its maximum backoff.
    public static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // Very large values saturate rather than overflow.
            guard let seconds = Int64(text) else { return longest }
            return min(.seconds(seconds), longest)
        }
        for format in dateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                let interval = date.timeIntervalSince(now)
                guard interval > 0 else { return .zero } // also NaN
                guard interval < Double(longestSeconds) else { return longest }
                return .milliseconds(Int64((interval * 1000).rounded()))
            }
        }
        return nil
    }

    /// The longest delay ``parse(_:now:)`` gives: 9,223,372 seconds (about 106 days).
    public static let longest: Duration = .seconds(longestSeconds)

    private static let longestSeconds: Int64 = Int64.max / 1_000_000_000_000

    private static let dateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",   // IMF-fixdate
        "EEEE, dd-MMM-yy HH:mm:ss zzz",    // RFC 850
        "EEE MMM d HH:mm:ss yyyy",         // asctime
    ]
}
