//! moment.js date formats as Obsidian uses them for note names (English locale): formatting a
//! date (and a time of day, for templates) and reading a formatted name back into a date.
//!
//! Tokens are matched as moment's tokenizer does (the first alternative of its pattern that
//! fits, longest first), `[...]` is literal text, `\` makes the next token literal, the long
//! date tokens (`L`, `LL`, `LT`, ...) expand to their English formats, and every other
//! character passes through. Weeks follow moment's default locale: `w`/`gggg` weeks start on
//! Sunday and week 1 holds January 1st; `W`/`GGGG` are ISO 8601 weeks.

use std::fmt;

use crate::calendar::{Date, Weekday};

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
const MONTHS_SHORT: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const WEEKDAYS_SHORT: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const WEEKDAYS_MIN: [&str; 7] = ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"];
const MERIDIEM_UPPER: [&str; 2] = ["AM", "PM"];
const MERIDIEM_LOWER: [&str; 2] = ["am", "pm"];

/// The English long date formats moment expands before formatting, longest token first.
const LONG_FORMATS: [(&str, &str); 10] = [
    ("LTS", "h:mm:ss A"),
    ("LT", "h:mm A"),
    ("LLLL", "dddd, MMMM D, YYYY h:mm A"),
    ("LLL", "MMMM D, YYYY h:mm A"),
    ("LL", "MMMM D, YYYY"),
    ("L", "MM/DD/YYYY"),
    ("llll", "ddd, MMM D, YYYY h:mm A"),
    ("lll", "MMM D, YYYY h:mm A"),
    ("ll", "MMM D, YYYY"),
    ("l", "M/D/YYYY"),
];

/// A time of day (UTC for the dispatch clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TimeOfDay {
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 59.
    pub second: u32,
}

impl TimeOfDay {
    /// The UTC time of day of the Unix time `ms` (milliseconds).
    pub fn from_unix_ms(ms: u64) -> TimeOfDay {
        let of_day = (ms / 1000 % 86_400) as u32;
        TimeOfDay {
            hour: of_day / 3600,
            minute: of_day % 3600 / 60,
            second: of_day % 60,
        }
    }
}

/// What a token counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Year,
    WeekYear,
    IsoWeekYear,
    Quarter,
    Month,
    DayOfMonth,
    DayOfYear,
    /// 0 (Sunday) to 6: `d`, and `e` in the English locale.
    Weekday,
    /// 1 (Monday) to 7.
    IsoWeekday,
    Week,
    IsoWeek,
    Hour,
    Hour12,
    HourFrom1,
    Minute,
    Second,
    Meridiem,
}

/// How many units there are (the size of a parse's field table).
const UNITS: usize = Unit::Meridiem as usize + 1;

/// How a token writes its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// The number without padding.
    Number,
    /// The number zero-padded to this many digits.
    Padded(usize),
    /// The last two digits.
    TwoDigit,
    /// `1st`, `2nd`, ...
    Ordinal,
    /// `Su` (weekdays).
    Min,
    /// `Jan`, `Sun`.
    Short,
    /// `January`, `Sunday`.
    Long,
    /// `AM` / `PM`.
    Upper,
    /// `am` / `pm`.
    Lower,
}

/// moment's format tokens in the order its tokenizer tries them; `None`: a token moment has
/// that cannot name a note (eras, fractions of seconds, Unix times, time zones).
const TOKENS: &[(&str, Option<(Unit, Style)>)] = &[
    ("Mo", Some((Unit::Month, Style::Ordinal))),
    ("MMMM", Some((Unit::Month, Style::Long))),
    ("MMM", Some((Unit::Month, Style::Short))),
    ("MM", Some((Unit::Month, Style::Padded(2)))),
    ("M", Some((Unit::Month, Style::Number))),
    ("Do", Some((Unit::DayOfMonth, Style::Ordinal))),
    ("DDDo", Some((Unit::DayOfYear, Style::Ordinal))),
    ("DDDD", Some((Unit::DayOfYear, Style::Padded(3)))),
    ("DDD", Some((Unit::DayOfYear, Style::Number))),
    ("DD", Some((Unit::DayOfMonth, Style::Padded(2)))),
    ("D", Some((Unit::DayOfMonth, Style::Number))),
    ("dddd", Some((Unit::Weekday, Style::Long))),
    ("ddd", Some((Unit::Weekday, Style::Short))),
    ("dd", Some((Unit::Weekday, Style::Min))),
    ("do", Some((Unit::Weekday, Style::Ordinal))),
    ("d", Some((Unit::Weekday, Style::Number))),
    ("wo", Some((Unit::Week, Style::Ordinal))),
    ("ww", Some((Unit::Week, Style::Padded(2)))),
    ("w", Some((Unit::Week, Style::Number))),
    ("Wo", Some((Unit::IsoWeek, Style::Ordinal))),
    ("WW", Some((Unit::IsoWeek, Style::Padded(2)))),
    ("W", Some((Unit::IsoWeek, Style::Number))),
    ("Qo", Some((Unit::Quarter, Style::Ordinal))),
    ("Q", Some((Unit::Quarter, Style::Number))),
    ("NNNNN", None),
    ("NNNN", None),
    ("NNN", None),
    ("NN", None),
    ("N", None),
    ("YYYYYY", None),
    ("YYYYY", None),
    ("YYYY", Some((Unit::Year, Style::Padded(4)))),
    ("YY", Some((Unit::Year, Style::TwoDigit))),
    ("yyyy", None),
    ("yyy", None),
    ("yy", None),
    ("yo", None),
    ("y", None),
    ("ggggg", Some((Unit::WeekYear, Style::Padded(5)))),
    ("gggg", Some((Unit::WeekYear, Style::Padded(4)))),
    ("gg", Some((Unit::WeekYear, Style::TwoDigit))),
    ("GGGGG", Some((Unit::IsoWeekYear, Style::Padded(5)))),
    ("GGGG", Some((Unit::IsoWeekYear, Style::Padded(4)))),
    ("GG", Some((Unit::IsoWeekYear, Style::TwoDigit))),
    ("e", Some((Unit::Weekday, Style::Number))),
    ("E", Some((Unit::IsoWeekday, Style::Number))),
    ("a", Some((Unit::Meridiem, Style::Lower))),
    ("A", Some((Unit::Meridiem, Style::Upper))),
    ("hh", Some((Unit::Hour12, Style::Padded(2)))),
    ("h", Some((Unit::Hour12, Style::Number))),
    ("HH", Some((Unit::Hour, Style::Padded(2)))),
    ("H", Some((Unit::Hour, Style::Number))),
    ("kk", Some((Unit::HourFrom1, Style::Padded(2)))),
    ("k", Some((Unit::HourFrom1, Style::Number))),
    ("mm", Some((Unit::Minute, Style::Padded(2)))),
    ("m", Some((Unit::Minute, Style::Number))),
    ("ss", Some((Unit::Second, Style::Padded(2)))),
    ("s", Some((Unit::Second, Style::Number))),
    ("S", None),
    ("x", None),
    ("X", None),
    ("zz", None),
    ("z", None),
    ("ZZ", None),
    ("Z", None),
    ("Y", Some((Unit::Year, Style::Padded(4)))),
];

/// One piece of a format.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(String),
    Field(Unit, Style),
}

/// A format uses a moment token that cannot name a note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedToken {
    /// The token as written.
    pub token: String,
}

impl fmt::Display for UnsupportedToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the moment.js token '{}' (era, fraction of a second, Unix time or time zone) cannot be used in a note name; put literal text in [brackets]",
            self.token
        )
    }
}

impl std::error::Error for UnsupportedToken {}

/// A compiled moment.js format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MomentFormat {
    tokens: Vec<Token>,
}

impl MomentFormat {
    /// Compiles `pattern` (for example `YYYY-MM-DD` or `gggg-[W]ww`).
    pub fn new(pattern: &str) -> Result<MomentFormat, UnsupportedToken> {
        let expanded = expand_long_formats(pattern);
        let mut tokens: Vec<Token> = Vec::new();
        let mut literal = String::new();
        let mut rest = expanded.as_str();
        while let Some(c) = rest.chars().next() {
            if c == '['
                && let Some(end) = rest.find(']')
                && !rest[1..end].contains('[')
            {
                literal.push_str(&rest[1..end]);
                rest = &rest[end + 1..];
                continue;
            }
            if c == '\\' {
                let after = &rest[1..];
                let len = match_token(after).map_or_else(
                    || after.chars().next().map_or(0, char::len_utf8),
                    |(text, _)| text.len(),
                );
                literal.push_str(&after[..len]);
                rest = &after[len..];
                continue;
            }
            match match_token(rest) {
                Some((text, Some((unit, style)))) => {
                    if !literal.is_empty() {
                        tokens.push(Token::Literal(std::mem::take(&mut literal)));
                    }
                    tokens.push(Token::Field(unit, style));
                    rest = &rest[text.len()..];
                }
                Some((text, None)) => {
                    return Err(UnsupportedToken {
                        token: text.to_owned(),
                    });
                }
                None => {
                    literal.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        if !literal.is_empty() {
            tokens.push(Token::Literal(literal));
        }
        Ok(MomentFormat { tokens })
    }

    /// `date` at `time` written in this format.
    pub fn format(&self, date: Date, time: TimeOfDay) -> String {
        let mut out = String::new();
        for token in &self.tokens {
            match token {
                Token::Literal(text) => out.push_str(text),
                Token::Field(unit, style) => write_field(&mut out, *unit, *style, date, time),
            }
        }
        out
    }

    /// Whether the format counts ISO weeks (`W`, `GGGG`, `E`) and no locale weeks: its week
    /// notes then start on Monday.
    pub fn uses_iso_weeks(&self) -> bool {
        let uses = |wanted: &[Unit]| {
            self.tokens
                .iter()
                .any(|token| matches!(token, Token::Field(unit, _) if wanted.contains(unit)))
        };
        uses(&[Unit::IsoWeek, Unit::IsoWeekYear, Unit::IsoWeekday])
            && !uses(&[Unit::Week, Unit::WeekYear, Unit::Weekday])
    }

    /// The date `text` names in this format, when it names one. Callers that need an exact
    /// reading check that formatting the date gives `text` back.
    pub fn parse_date(&self, text: &str) -> Option<Date> {
        let mut fields = [None; UNITS];
        let mut rest = text;
        for token in &self.tokens {
            match token {
                Token::Literal(literal) => rest = rest.strip_prefix(literal.as_str())?,
                Token::Field(unit, style) => {
                    let (value, len) = read_field(rest, *unit, *style)?;
                    let slot = &mut fields[*unit as usize];
                    if slot.is_some_and(|old| old != value) {
                        return None;
                    }
                    *slot = Some(value);
                    rest = &rest[len..];
                }
            }
        }
        rest.is_empty().then(|| date_of(&fields))?
    }
}

/// `pattern` with moment's English long date tokens replaced by their formats (outside
/// `[brackets]` and escapes).
fn expand_long_formats(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    'scan: while let Some(c) = rest.chars().next() {
        if c == '['
            && let Some(end) = rest.find(']')
            && !rest[1..end].contains('[')
        {
            out.push_str(&rest[..=end]);
            rest = &rest[end + 1..];
            continue;
        }
        if c == '\\' {
            let len = 1 + rest[1..].chars().next().map_or(0, char::len_utf8);
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        for (token, format) in LONG_FORMATS {
            if let Some(after) = rest.strip_prefix(token) {
                out.push_str(format);
                rest = after;
                continue 'scan;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The moment token `text` starts with, if any.
fn match_token(text: &str) -> Option<(&'static str, Option<(Unit, Style)>)> {
    TOKENS
        .iter()
        .find(|(token, _)| text.starts_with(token))
        .copied()
}

/// The number `unit` has for `date` at `time`.
fn value_of(unit: Unit, date: Date, time: TimeOfDay) -> i64 {
    let locale_week = || date.week_in(Weekday::Sunday, 1);
    match unit {
        Unit::Year => i64::from(date.year),
        Unit::WeekYear => i64::from(locale_week().0),
        Unit::IsoWeekYear => i64::from(date.iso_week().0),
        Unit::Quarter => i64::from(date.quarter()),
        Unit::Month => i64::from(date.month),
        Unit::DayOfMonth => i64::from(date.day),
        Unit::DayOfYear => i64::from(date.ordinal()),
        Unit::Weekday => i64::from(date.weekday().sunday_based()),
        Unit::IsoWeekday => i64::from(date.weekday().iso_number()),
        Unit::Week => i64::from(locale_week().1),
        Unit::IsoWeek => i64::from(date.iso_week().1),
        Unit::Hour => i64::from(time.hour),
        Unit::Hour12 => i64::from(match time.hour % 12 {
            0 => 12,
            hour => hour,
        }),
        Unit::HourFrom1 => i64::from(if time.hour == 0 { 24 } else { time.hour }),
        Unit::Minute => i64::from(time.minute),
        Unit::Second => i64::from(time.second),
        Unit::Meridiem => i64::from(time.hour >= 12),
    }
}

/// The names a unit is written with in `style`, when it is written as a name.
fn names(unit: Unit, style: Style) -> Option<&'static [&'static str]> {
    match (unit, style) {
        (Unit::Month, Style::Short) => Some(&MONTHS_SHORT),
        (Unit::Month, Style::Long) => Some(&MONTHS),
        (Unit::Weekday, Style::Min) => Some(&WEEKDAYS_MIN),
        (Unit::Weekday, Style::Short) => Some(&WEEKDAYS_SHORT),
        (Unit::Weekday, Style::Long) => Some(&WEEKDAYS),
        (Unit::Meridiem, Style::Upper) => Some(&MERIDIEM_UPPER),
        (Unit::Meridiem, Style::Lower) => Some(&MERIDIEM_LOWER),
        _ => None,
    }
}

/// The index of a unit's value in its list of names (months count from 1).
fn name_offset(unit: Unit) -> i64 {
    i64::from(unit == Unit::Month)
}

/// English ordinal suffix of `n`: `st`, `nd`, `rd` or `th`.
fn ordinal_suffix(n: i64) -> &'static str {
    if n % 100 / 10 == 1 {
        return "th";
    }
    match n % 10 {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    }
}

fn write_field(out: &mut String, unit: Unit, style: Style, date: Date, time: TimeOfDay) {
    let value = value_of(unit, date, time);
    if let Some(names) = names(unit, style) {
        let index = usize::try_from(value - name_offset(unit)).unwrap_or(0);
        out.push_str(names.get(index).copied().unwrap_or_default());
        return;
    }
    match style {
        Style::Padded(width) => out.push_str(&format!("{value:0width$}")),
        Style::TwoDigit => out.push_str(&format!("{:02}", value.rem_euclid(100))),
        Style::Ordinal => out.push_str(&format!("{value}{}", ordinal_suffix(value))),
        _ => out.push_str(&value.to_string()),
    }
}

/// The most digits an unpadded number of `unit` has.
fn max_digits(unit: Unit) -> usize {
    match unit {
        Unit::Year | Unit::WeekYear | Unit::IsoWeekYear => 4,
        Unit::Quarter | Unit::Weekday | Unit::IsoWeekday => 1,
        Unit::DayOfYear => 3,
        _ => 2,
    }
}

/// The value of `unit` at the start of `text` in `style`, and how many bytes it took.
fn read_field(text: &str, unit: Unit, style: Style) -> Option<(i64, usize)> {
    if let Some(names) = names(unit, style) {
        let (index, name) = names
            .iter()
            .enumerate()
            .find(|(_, name)| text.starts_with(*name))?;
        return Some((index as i64 + name_offset(unit), name.len()));
    }
    let digits = |min: usize, max: usize| -> Option<(i64, usize)> {
        let len = text
            .bytes()
            .take(max)
            .take_while(u8::is_ascii_digit)
            .count();
        (len >= min).then(|| Some((text[..len].parse().ok()?, len)))?
    };
    match style {
        Style::Padded(width) => digits(width, width),
        Style::TwoDigit => {
            let (two, len) = digits(2, 2)?;
            Some((two + if two > 68 { 1900 } else { 2000 }, len))
        }
        Style::Ordinal => {
            let (value, len) = digits(1, max_digits(unit))?;
            let suffix = ordinal_suffix(value);
            text[len..]
                .starts_with(suffix)
                .then_some((value, len + suffix.len()))
        }
        _ => digits(1, max_digits(unit)),
    }
}

/// The date named by the parsed `fields`: a full date first, then a week, then a quarter,
/// a month or a year (their first day).
fn date_of(fields: &[Option<i64>; UNITS]) -> Option<Date> {
    let get = |unit: Unit| fields[unit as usize];
    let int = |value: i64| i32::try_from(value).ok();
    let year = get(Unit::Year).and_then(int);
    if let (Some(year), Some(day)) = (year, get(Unit::DayOfYear)) {
        let date = Date::first_of_year(year).add_days(day.checked_sub(1)?);
        return (day >= 1 && date.year == year).then_some(date);
    }
    if let (Some(year), Some(month)) = (year, get(Unit::Month)) {
        let day = get(Unit::DayOfMonth).unwrap_or(1);
        return Date::new(year, u32::try_from(month).ok()?, u32::try_from(day).ok()?);
    }
    let week_date = |week: i64, week_year: i32, first: Weekday, anchor: u32, day: i64| {
        ((1..=53).contains(&week) && (0..7).contains(&day))
            .then(|| Date::week_one_start(week_year, first, anchor).add_days((week - 1) * 7 + day))
    };
    if let Some(week) = get(Unit::Week) {
        let week_year = get(Unit::WeekYear).and_then(int).or(year)?;
        let day = get(Unit::Weekday).unwrap_or(0);
        return week_date(week, week_year, Weekday::Sunday, 1, day);
    }
    if let Some(week) = get(Unit::IsoWeek) {
        let week_year = get(Unit::IsoWeekYear).and_then(int).or(year)?;
        let day = get(Unit::IsoWeekday).unwrap_or(1) - 1;
        return week_date(week, week_year, Weekday::Monday, 4, day);
    }
    if let (Some(year), Some(quarter)) = (year, get(Unit::Quarter)) {
        let month = u32::try_from(quarter.checked_sub(1)? * 3 + 1).ok()?;
        return Date::new(year, month, 1);
    }
    if let Some(year) = year {
        return Some(Date::first_of_year(year));
    }
    if let Some(week_year) = get(Unit::WeekYear).and_then(int) {
        return Some(Date::week_one_start(week_year, Weekday::Sunday, 1));
    }
    get(Unit::IsoWeekYear)
        .and_then(int)
        .map(|week_year| Date::week_one_start(week_year, Weekday::Monday, 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Date {
        Date::parse_iso(text).expect("date")
    }

    fn fmt(pattern: &str, date: &str) -> String {
        MomentFormat::new(pattern)
            .expect("format")
            .format(d(date), TimeOfDay::default())
    }

    #[test]
    fn formats_dates_as_moment_does() {
        assert_eq!(fmt("YYYY-MM-DD", "2026-03-07"), "2026-03-07");
        assert_eq!(fmt("YY M D", "2026-03-07"), "26 3 7");
        assert_eq!(fmt("MMM MMMM Mo", "2026-03-07"), "Mar March 3rd");
        assert_eq!(
            fmt("dddd, MMMM Do YYYY", "2026-03-07"),
            "Saturday, March 7th 2026"
        );
        assert_eq!(fmt("d dd ddd do e E", "2026-03-08"), "0 Su Sun 0th 0 7");
        assert_eq!(fmt("DDD DDDD DDDo", "2026-02-01"), "32 032 32nd");
        assert_eq!(fmt("Do", "2026-01-11"), "11th");
        assert_eq!(fmt("Do", "2026-01-22"), "22nd");
        assert_eq!(fmt("Do", "2026-01-23"), "23rd");
        assert_eq!(fmt("Do", "2026-01-31"), "31st");
        assert_eq!(fmt("YYYY-[Q]Q Qo", "2026-08-15"), "2026-Q3 3rd");
        assert_eq!(
            fmt("YYYY/MM/YYYY-MM-DD", "2026-08-15"),
            "2026/08/2026-08-15"
        );
        assert_eq!(fmt("[YYYY] \\YYYY Y", "2026-08-15"), "YYYY YYYY 2026");
        assert_eq!(fmt("LL", "2026-08-15"), "August 15, 2026");
        assert_eq!(fmt("L", "2026-08-15"), "08/15/2026");
        // Letters that are no token pass through.
        assert_eq!(
            fmt("YYYY-MM-DD [at] g G i", "2026-08-15"),
            "2026-08-15 at g G i"
        );
    }

    #[test]
    fn weeks_at_year_boundaries() {
        // moment (en): weeks start Sunday, week 1 holds Jan 1st; ISO for W / GGGG.
        assert_eq!(fmt("gggg-[W]ww", "2021-01-01"), "2021-W01");
        assert_eq!(fmt("GGGG-[W]WW", "2021-01-01"), "2020-W53");
        assert_eq!(fmt("gggg-[W]ww", "2020-12-27"), "2021-W01");
        assert_eq!(fmt("gggg-[W]ww", "2020-12-26"), "2020-W52");
        assert_eq!(fmt("GGGG-[W]WW", "2024-12-30"), "2025-W01");
        assert_eq!(
            fmt("gggg-[W]w wo Wo gg GG", "2026-01-01"),
            "2026-W1 1st 1st 26 26"
        );
        assert_eq!(fmt("gggg-[W]ww", "2026-12-31"), "2027-W01");
        assert_eq!(fmt("GGGG-[W]WW", "2026-12-31"), "2026-W53");
    }

    #[test]
    fn formats_times_of_day() {
        let format = MomentFormat::new("HH:mm:ss h A hh a k H m s").expect("format");
        let time = |hour, minute, second| TimeOfDay {
            hour,
            minute,
            second,
        };
        assert_eq!(
            format.format(d("2026-01-01"), time(0, 5, 9)),
            "00:05:09 12 AM 12 am 24 0 5 9"
        );
        assert_eq!(
            format.format(d("2026-01-01"), time(13, 30, 0)),
            "13:30:00 1 PM 01 pm 13 13 30 0"
        );
        assert_eq!(
            TimeOfDay::from_unix_ms(1_767_225_600_000 + 3_723_000),
            time(1, 2, 3)
        );
    }

    #[test]
    fn refuses_tokens_that_cannot_name_a_note() {
        for pattern in ["YYYY-MM-DD X", "x", "YYYY Z", "HH:mm:ss.SSS", "YYYYY"] {
            assert!(MomentFormat::new(pattern).is_err(), "{pattern}");
        }
        assert!(MomentFormat::new("[X] [Z]").is_ok());
    }

    fn read(pattern: &str, name: &str) -> Option<Date> {
        MomentFormat::new(pattern).expect("format").parse_date(name)
    }

    #[test]
    fn reads_names_back_into_dates() {
        assert_eq!(read("YYYY-MM-DD", "2026-03-07"), Some(d("2026-03-07")));
        assert_eq!(read("YYYYMMDD", "20260307"), Some(d("2026-03-07")));
        assert_eq!(
            read("dddd, MMMM Do YYYY", "Saturday, March 7th 2026"),
            Some(d("2026-03-07"))
        );
        assert_eq!(read("YY.M.D", "99.12.31"), Some(d("1999-12-31")));
        assert_eq!(read("gggg-[W]ww", "2021-W01"), Some(d("2020-12-27")));
        assert_eq!(read("GGGG-[W]WW", "2020-W53"), Some(d("2020-12-28")));
        assert_eq!(read("YYYY-[Q]Q", "2026-Q3"), Some(d("2026-07-01")));
        assert_eq!(read("YYYY-MM", "2026-11"), Some(d("2026-11-01")));
        assert_eq!(read("YYYY", "2026"), Some(d("2026-01-01")));
        assert_eq!(read("YYYY-DDDD", "2024-366"), Some(d("2024-12-31")));
        assert_eq!(
            read("YYYY/MM/YYYY-MM-DD", "2026/08/2026-08-15"),
            Some(d("2026-08-15"))
        );
        // Not a name of this format, or no such day.
        assert_eq!(read("YYYY-MM-DD", "2026-02-30"), None);
        assert_eq!(read("YYYY-MM-DD", "2026-03-07 copy"), None);
        assert_eq!(read("YYYY-MM-DD", "Meeting"), None);
        assert_eq!(read("YYYY-DDDD", "2025-366"), None);
        assert_eq!(read("YYYY-MM-Do", "2026-01-1nd"), None);
        assert_eq!(read("YYYY-MM-Do", "2026-01-1st"), Some(d("2026-01-01")));
        assert_eq!(read("YYYY/MM/YYYY-MM-DD", "2026/07/2026-08-15"), None);
    }
}
