//! Calendar arithmetic without a time zone database: proleptic Gregorian dates
//! ([`Date`]), ISO and locale weeks. Pure: tasks and periodic notes share it.

mod date;

pub use date::{Date, Weekday};
