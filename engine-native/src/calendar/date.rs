//! [`Date`]: a day of the proleptic Gregorian calendar, with day arithmetic and weeks.

use std::fmt;

/// A day of the week, Monday first (ISO 8601).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weekday {
    /// Monday.
    Monday,
    /// Tuesday.
    Tuesday,
    /// Wednesday.
    Wednesday,
    /// Thursday.
    Thursday,
    /// Friday.
    Friday,
    /// Saturday.
    Saturday,
    /// Sunday.
    Sunday,
}

impl Weekday {
    /// 1 (Monday) to 7 (Sunday), as ISO numbers them.
    pub fn iso_number(self) -> u32 {
        self as u32 + 1
    }

    /// 0 (Sunday) to 6 (Saturday), as moment.js `d` numbers them.
    pub fn sunday_based(self) -> u32 {
        self.iso_number() % 7
    }

    /// The English name (`Monday`).
    pub fn name(self) -> &'static str {
        [
            "Monday",
            "Tuesday",
            "Wednesday",
            "Thursday",
            "Friday",
            "Saturday",
            "Sunday",
        ][self as usize]
    }

    fn from_monday_offset(offset: i64) -> Weekday {
        const DAYS: [Weekday; 7] = [
            Weekday::Monday,
            Weekday::Tuesday,
            Weekday::Wednesday,
            Weekday::Thursday,
            Weekday::Friday,
            Weekday::Saturday,
            Weekday::Sunday,
        ];
        DAYS[offset.rem_euclid(7) as usize]
    }
}

/// A calendar day. Ordered chronologically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// The year (astronomical: year 0 exists).
    pub year: i32,
    /// 1 to 12.
    pub month: u32,
    /// 1 to the month's length.
    pub day: u32,
}

/// Whether `year` is a Gregorian leap year.
fn is_leap(year: i32) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

/// The number of days of `month` in `year`.
pub(crate) fn month_length(year: i32, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

impl Date {
    /// The date `year-month-day`, when it exists.
    pub fn new(year: i32, month: u32, day: u32) -> Option<Date> {
        ((1..=12).contains(&month) && (1..=month_length(year, month)).contains(&day))
            .then_some(Date { year, month, day })
    }

    /// Parses `YYYY-MM-DD` (exactly that shape, and a day that exists).
    pub fn parse_iso(text: &str) -> Option<Date> {
        let bytes = text.as_bytes();
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let number = |range: std::ops::Range<usize>| -> Option<u32> {
            let part = text.get(range)?;
            part.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| part.parse().ok())?
        };
        let year = i32::try_from(number(0..4)?).ok()?;
        Date::new(year, number(5..7)?, number(8..10)?)
    }

    /// The day that contains the Unix time `ms` (milliseconds, UTC).
    pub fn from_unix_ms(ms: u64) -> Date {
        let days = i64::try_from(ms / 86_400_000).unwrap_or(i64::MAX / 2);
        Date::from_days(days)
    }

    /// Days since 1970-01-01 (negative before).
    pub fn days(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let year = i64::from(self.year) - i64::from(self.month <= 2);
        let era = year.div_euclid(400);
        let year_of_era = year - era * 400;
        let month = i64::from(self.month);
        let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5
            + i64::from(self.day)
            - 1;
        let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
        era * 146_097 + day_of_era - 719_468
    }

    /// The date `days` days after 1970-01-01.
    pub fn from_days(days: i64) -> Date {
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let day_of_era = z - era * 146_097;
        let year_of_era =
            (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
        let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
        let mp = (5 * day_of_year + 2) / 153;
        let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = year_of_era + era * 400 + i64::from(month <= 2);
        Date {
            year: i32::try_from(year).unwrap_or(i32::MAX),
            month,
            day,
        }
    }

    /// This date moved by `days` (negative: earlier).
    pub fn add_days(self, days: i64) -> Date {
        Date::from_days(self.days() + days)
    }

    /// This date moved by `months` calendar months, the day clamped to the month's length.
    pub fn add_months(self, months: i64) -> Date {
        let index = i64::from(self.year) * 12 + i64::from(self.month) - 1 + months;
        let year = i32::try_from(index.div_euclid(12)).unwrap_or(i32::MAX);
        let month = index.rem_euclid(12) as u32 + 1;
        Date {
            year,
            month,
            day: self.day.min(month_length(year, month)),
        }
    }

    /// The day of the week.
    pub fn weekday(self) -> Weekday {
        // 1970-01-01 was a Thursday.
        Weekday::from_monday_offset(self.days() + 3)
    }

    /// 1-based day of the year.
    pub fn ordinal(self) -> u32 {
        (self.days() - Date::first_of_year(self.year).days()) as u32 + 1
    }

    /// January 1st of `year`.
    pub fn first_of_year(year: i32) -> Date {
        Date {
            year,
            month: 1,
            day: 1,
        }
    }

    /// The quarter, 1 to 4.
    pub fn quarter(self) -> u32 {
        (self.month - 1) / 3 + 1
    }

    /// The ISO 8601 week-numbering year and week (weeks start on Monday; week 1 holds the
    /// year's first Thursday).
    pub fn iso_week(self) -> (i32, u32) {
        self.week_in(Weekday::Monday, 4)
    }

    /// The week-numbering year and week of a locale whose weeks start on `first_day` and
    /// whose week 1 holds January `anchor_day` (ISO: Monday and 4; moment's `en` locale:
    /// Sunday and 1).
    pub fn week_in(self, first_day: Weekday, anchor_day: u32) -> (i32, u32) {
        let start = self.start_of_week(first_day);
        // The week's year is the year of its anchor weekday, the one as far after the
        // week's start as January `anchor_day` is after week 1's start.
        let week_year_of = |start: Date| {
            let first_week = Date::week_one_start(start.year + 1, first_day, anchor_day);
            if start >= first_week {
                start.year + 1
            } else if start >= Date::week_one_start(start.year, first_day, anchor_day) {
                start.year
            } else {
                start.year - 1
            }
        };
        let year = week_year_of(start);
        let week_one = Date::week_one_start(year, first_day, anchor_day);
        (year, ((start.days() - week_one.days()) / 7 + 1) as u32)
    }

    /// The first day of week 1 of week-year `year`.
    pub fn week_one_start(year: i32, first_day: Weekday, anchor_day: u32) -> Date {
        Date {
            year,
            month: 1,
            day: anchor_day,
        }
        .start_of_week(first_day)
    }

    /// The last `first_day` on or before this date.
    pub fn start_of_week(self, first_day: Weekday) -> Date {
        let back = (i64::from(self.weekday().iso_number()) - i64::from(first_day.iso_number()))
            .rem_euclid(7);
        self.add_days(-back)
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        Date::parse_iso(text).expect("date")
    }

    #[test]
    fn days_round_trip_and_weekdays() {
        assert_eq!(d("1970-01-01").days(), 0);
        assert_eq!(d("2026-01-01").days(), 20_454);
        for days in [-800_000, -1, 0, 59, 20_454, 2_000_000] {
            assert_eq!(Date::from_days(days).days(), days);
        }
        assert_eq!(d("2026-01-01").weekday(), Weekday::Thursday);
        assert_eq!(d("2024-02-29").add_days(1), d("2024-03-01"));
        assert_eq!(d("2024-01-31").add_months(1), d("2024-02-29"));
        assert_eq!(d("2024-01-31").add_months(-2), d("2023-11-30"));
        assert_eq!(Date::parse_iso("2023-02-29"), None);
        assert_eq!(Date::parse_iso("2023-2-01"), None);
        assert_eq!(d("2024-12-31").ordinal(), 366);
    }

    #[test]
    fn iso_and_locale_weeks() {
        assert_eq!(d("2021-01-03").iso_week(), (2020, 53));
        assert_eq!(d("2021-01-04").iso_week(), (2021, 1));
        assert_eq!(d("2024-12-30").iso_week(), (2025, 1));
        assert_eq!(d("2026-01-01").iso_week(), (2026, 1));
        // moment `en`: weeks start on Sunday, week 1 holds January 1st.
        let en = |text| d(text).week_in(Weekday::Sunday, 1);
        assert_eq!(en("2024-12-29"), (2025, 1));
        assert_eq!(en("2025-01-04"), (2025, 1));
        assert_eq!(en("2025-01-05"), (2025, 2));
        assert_eq!(en("2022-01-01"), (2022, 1));
        assert_eq!(en("2021-12-26"), (2022, 1));
    }
}
