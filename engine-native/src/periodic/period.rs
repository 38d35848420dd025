//! [`Period`]: the five kinds of periodic note and the first day of the period a date is in.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::calendar::{Date, Weekday};

/// A kind of periodic note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Period {
    /// One note a day.
    Daily,
    /// One note a week.
    Weekly,
    /// One note a month.
    Monthly,
    /// One note a quarter.
    Quarterly,
    /// One note a year.
    Yearly,
}

impl Period {
    /// The name on the wire (`daily`, ...), also the Periodic Notes plugin's settings key
    /// before its calendar sets.
    pub fn name(self) -> &'static str {
        match self {
            Period::Daily => "daily",
            Period::Weekly => "weekly",
            Period::Monthly => "monthly",
            Period::Quarterly => "quarterly",
            Period::Yearly => "yearly",
        }
    }

    /// The key of this period in a Periodic Notes calendar set (`day`, `week`, ...).
    pub fn granularity(self) -> &'static str {
        match self {
            Period::Daily => "day",
            Period::Weekly => "week",
            Period::Monthly => "month",
            Period::Quarterly => "quarter",
            Period::Yearly => "year",
        }
    }

    /// The moment.js format Obsidian uses when none is configured.
    pub fn default_format(self) -> &'static str {
        match self {
            Period::Daily => "YYYY-MM-DD",
            Period::Weekly => "gggg-[W]ww",
            Period::Monthly => "YYYY-MM",
            Period::Quarterly => "YYYY-[Q]Q",
            Period::Yearly => "YYYY",
        }
    }

    /// The first day of the period `date` is in (weeks start on `week_start`).
    pub fn start(self, date: Date, week_start: Weekday) -> Date {
        let first = |month| Date::new(date.year, month, 1).unwrap_or(date);
        match self {
            Period::Daily => date,
            Period::Weekly => date.start_of_week(week_start),
            Period::Monthly => first(date.month),
            Period::Quarterly => first((date.quarter() - 1) * 3 + 1),
            Period::Yearly => Date::first_of_year(date.year),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_start_on_their_first_day() {
        let d = |text| Date::parse_iso(text).expect("date");
        let day = d("2026-08-15"); // a Saturday
        assert_eq!(Period::Daily.start(day, Weekday::Sunday), day);
        assert_eq!(Period::Weekly.start(day, Weekday::Sunday), d("2026-08-09"));
        assert_eq!(Period::Weekly.start(day, Weekday::Monday), d("2026-08-10"));
        assert_eq!(Period::Monthly.start(day, Weekday::Sunday), d("2026-08-01"));
        assert_eq!(
            Period::Quarterly.start(day, Weekday::Sunday),
            d("2026-07-01")
        );
        assert_eq!(Period::Yearly.start(day, Weekday::Sunday), d("2026-01-01"));
    }
}
