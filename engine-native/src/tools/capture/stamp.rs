//! UTC timestamps for capture names: `YYYY-MM-DD HHmmss` from milliseconds since the Unix
//! epoch (the proleptic Gregorian calendar, Howard Hinnant's `civil_from_days`).

/// `YYYY-MM-DD HHmmss` (UTC) of `ms` milliseconds since the Unix epoch.
pub(super) fn file_stamp(ms: u64) -> String {
    let seconds = ms / 1000;
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}{:02}{:02}",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    )
}

/// The (year, month, day) of `days` since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::file_stamp;

    #[test]
    fn formats_known_instants() {
        assert_eq!(file_stamp(0), "1970-01-01 000000");
        assert_eq!(file_stamp(1_767_225_600_000), "2026-01-01 000000");
        assert_eq!(file_stamp(951_782_400_000 + 3_723_000), "2000-02-29 010203");
        assert_eq!(file_stamp(1_767_225_599_999), "2025-12-31 235959");
    }
}
