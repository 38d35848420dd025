//! Calendar arithmetic without a time zone database: proleptic Gregorian dates
//! ([`Date`]), ISO and locale weeks. Pure: tasks and periodic notes share it.

mod date;

pub use date::{Date, Weekday};

/// `seconds` since the Unix epoch as an RFC 3339 UTC timestamp, `2026-01-01T00:00:00Z`.
pub fn rfc3339_utc(seconds: i64) -> String {
    let (days, secs) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    format!(
        "{}T{:02}:{:02}:{:02}Z",
        Date::from_days(days),
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

#[cfg(test)]
mod tests {
    use super::rfc3339_utc;

    #[test]
    fn unix_seconds_read_as_utc_timestamps() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(951_782_400 + 86_399), "2000-02-29T23:59:59Z");
        assert_eq!(rfc3339_utc(-1), "1969-12-31T23:59:59Z");
    }
}
