import Foundation

/// Where the store reads the current time from.
///
/// Production uses ``system``; tests inject a deterministic clock so that the
/// `created_at` / `updated_at` values they check are known in advance.
public struct StoreClock: Sendable {
    /// Returns "now". Called once per write operation.
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The machine's wall clock.
    public static let system = StoreClock(now: { Date() })

    /// A clock frozen at `date`.
    public static func fixed(_ date: Date) -> StoreClock {
        StoreClock(now: { date })
    }
}

/// RFC 3339 timestamps as the store writes them: UTC, millisecond precision,
/// always 24 characters, e.g. `2026-11-22T06:01:02.345Z`.
///
/// Written by hand (civil-from-days arithmetic) rather than with a `DateFormatter`,
/// so it is pure, allocation-light and safe to call from any thread. Because the
/// format has a fixed width, such strings sort chronologically as plain text.
public enum Timestamp {
    /// Formats `date`, rounded to the nearest millisecond.
    public static func rfc3339(_ date: Date) -> String {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let millisPerDay: Int64 = 86_400_000
        var days = totalMillis / millisPerDay
        var millisOfDay = totalMillis % millisPerDay
        if millisOfDay < 0 {  // before 1970: floor division
            days -= 1
            millisOfDay += millisPerDay
        }
        let (year, month, day) = civil(fromDays: days)
        let hour = millisOfDay / 3_600_000
        let minute = millisOfDay / 60_000 % 60
        let second = millisOfDay / 1000 % 60
        let millis = millisOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
            + "\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millis, 3))Z"
    }

    /// Proleptic Gregorian (year, month, day) of a day count since 1970-01-01
    /// (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March = 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
