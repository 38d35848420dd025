//! The times the audit log is filtered by, as people and agents write them: an RFC 3339
//! timestamp (`2026-11-27T09:30:00Z`, any offset), a date (`2026-11-27`, midnight UTC), or a
//! span back from now (`90m`, `24h`, `7d`, humantime's units).

use crate::calendar::Date;

/// `text` as Unix seconds, a span counted back from `now`; a message saying which shapes are
/// accepted when it is none of them.
pub fn parse_time(text: &str, now: i64) -> Result<i64, String> {
    let text = text.trim();
    if let Ok(time) = chrono::DateTime::parse_from_rfc3339(text) {
        return Ok(time.timestamp());
    }
    if let Some(date) = Date::parse_iso(text) {
        return Ok(date.days() * 86_400);
    }
    if let Ok(span) = humantime::parse_duration(text) {
        let seconds = i64::try_from(span.as_secs()).unwrap_or(i64::MAX);
        return Ok(now.saturating_sub(seconds));
    }
    Err(format!(
        "'{text}' is not a time: give an RFC 3339 timestamp (2026-11-27T09:30:00Z), a date \
         (2026-11-27) or a span back from now (90m, 24h, 7d)"
    ))
}

#[cfg(test)]
mod tests {
    use super::parse_time;

    const NOW: i64 = 1_800_000_000;

    #[test]
    fn timestamps_dates_and_spans() {
        assert_eq!(parse_time("1970-01-01T00:01:00Z", NOW), Ok(60));
        assert_eq!(parse_time("1970-01-01T01:00:00+01:00", NOW), Ok(0));
        assert_eq!(parse_time("1970-01-02", NOW), Ok(86_400));
        assert_eq!(parse_time("24h", NOW), Ok(NOW - 86_400));
        assert_eq!(parse_time(" 90m ", NOW), Ok(NOW - 5_400));
        assert_eq!(parse_time("7d", NOW), Ok(NOW - 7 * 86_400));
    }

    #[test]
    fn anything_else_says_what_is_accepted() {
        for text in ["", "yesterday", "2026-13-01", "12:00"] {
            let error = parse_time(text, NOW).unwrap_err();
            assert!(error.contains("RFC 3339"), "{error}");
        }
    }
}
