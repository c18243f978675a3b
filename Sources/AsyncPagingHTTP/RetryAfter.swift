import Foundation

/// The `Retry-After` header field (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date.
public enum RetryAfter {
    /// The delay `value` asks for, measured from `now`.
    ///
    /// Accepts delay-seconds (`"120"`) and the three HTTP-date forms: IMF-fixdate
    /// (`"Sun, 06 Nov 1994 08:49:37 GMT"`), RFC 850 (`"Sunday, 06-Nov-94 08:49:37 GMT"`) and
    /// asctime (`"Sun Nov  6 08:49:37 1994"`). A date in the past gives zero. Anything else
    /// (negative or fractional seconds, an unknown date form) gives nil.
    public static func parse(_ value: String, now: Date = Date()) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // Very large values saturate rather than overflow.
            guard let seconds = Int64(text) else { return .seconds(Int64.max / 1_000_000_000_000) }
            return .seconds(min(seconds, Int64.max / 1_000_000_000_000))
        }
        for format in dateFormats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) {
                let interval = max(0, date.timeIntervalSince(now))
                return .milliseconds(Int64((interval * 1000).rounded()))
            }
        }
        return nil
    }

    private static let dateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",   // IMF-fixdate
        "EEEE, dd-MMM-yy HH:mm:ss zzz",    // RFC 850
        "EEE MMM d HH:mm:ss yyyy",         // asctime
    ]
}
