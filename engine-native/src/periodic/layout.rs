//! [`NoteLayout`]: where the note of a period and date lives, and which date a note's path
//! names (only paths the layout itself would produce count).

use super::moment::{MomentFormat, TimeOfDay, UnsupportedToken};
use super::period::Period;
use super::settings::PeriodSettings;
use crate::calendar::{Date, Weekday};

/// The periodic note of one period and date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteName {
    /// The first day of the note's period.
    pub date: Date,
    /// The vault-relative path, `.md` included.
    pub path: String,
    /// The file name without `.md` (Obsidian's note title).
    pub title: String,
}

/// A period's notes as the vault's settings lay them out.
#[derive(Debug, Clone)]
pub struct NoteLayout {
    /// The period.
    pub period: Period,
    /// The settings in force.
    pub settings: PeriodSettings,
    format: MomentFormat,
}

impl NoteLayout {
    /// The layout of `period`'s notes under `settings`; a format with a token that cannot
    /// name a note is refused.
    pub fn new(period: Period, settings: PeriodSettings) -> Result<NoteLayout, UnsupportedToken> {
        let format = MomentFormat::new(&settings.format)?;
        Ok(NoteLayout {
            period,
            settings,
            format,
        })
    }

    /// The compiled name format.
    pub fn format(&self) -> &MomentFormat {
        &self.format
    }

    /// The day weeks start on: Monday for a format of ISO weeks, else Sunday (moment's
    /// default locale, as Obsidian has it).
    pub fn week_start(&self) -> Weekday {
        if self.format.uses_iso_weeks() {
            Weekday::Monday
        } else {
            Weekday::Sunday
        }
    }

    /// The note of the period `date` is in.
    pub fn note_for(&self, date: Date) -> NoteName {
        let date = self.period.start(date, self.week_start());
        let name = self.format.format(date, TimeOfDay::default());
        let path = self
            .settings
            .folder
            .split('/')
            .chain(name.split('/'))
            .filter(|segment| !segment.is_empty())
            .collect::<Vec<_>>()
            .join("/");
        let title = path.rsplit('/').next().unwrap_or_default().to_owned();
        NoteName {
            date,
            path: format!("{path}.md"),
            title,
        }
    }

    /// The first day of the period the note at `path` is for, when `path` is exactly the
    /// path [`NoteLayout::note_for`] gives that period (anything else is not this layout's
    /// note, however close).
    pub fn date_of_path(&self, path: &str) -> Option<Date> {
        let stem = path.strip_suffix(".md")?;
        let name = if self.settings.folder.is_empty() {
            stem
        } else {
            stem.strip_prefix(self.settings.folder.as_str())?
                .strip_prefix('/')?
        };
        let date = self.format.parse_date(name)?;
        let note = self.note_for(date);
        (note.path == path).then_some(note.date)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::periodic::settings::SettingsSource;

    fn layout(period: Period, folder: &str, format: &str) -> NoteLayout {
        let settings = PeriodSettings {
            folder: folder.to_owned(),
            format: format.to_owned(),
            template: None,
            source: SettingsSource::Default,
        };
        NoteLayout::new(period, settings).expect("layout")
    }

    fn d(text: &str) -> Date {
        Date::parse_iso(text).expect("date")
    }

    #[test]
    fn nested_formats_make_folders() {
        let daily = layout(Period::Daily, "Journal", "YYYY/MM/YYYY-MM-DD");
        let note = daily.note_for(d("2026-08-15"));
        assert_eq!(note.path, "Journal/2026/08/2026-08-15.md");
        assert_eq!(note.title, "2026-08-15");
        assert_eq!(
            daily.date_of_path("Journal/2026/08/2026-08-15.md"),
            Some(d("2026-08-15"))
        );
        assert_eq!(daily.date_of_path("Journal/2026/07/2026-08-15.md"), None);
        assert_eq!(daily.date_of_path("Other/2026/08/2026-08-15.md"), None);
        assert_eq!(daily.date_of_path("Journal/2026/08/2026-08-15.txt"), None);
    }

    #[test]
    fn weeks_start_by_the_format_and_round_trip() {
        let locale = layout(Period::Weekly, "", "gggg-[W]ww");
        let note = locale.note_for(d("2021-01-01"));
        assert_eq!(
            (note.path.as_str(), note.date),
            ("2021-W01.md", d("2020-12-27"))
        );
        assert_eq!(locale.date_of_path("2021-W01.md"), Some(d("2020-12-27")));
        let iso = layout(Period::Weekly, "W", "GGGG-[W]WW");
        let note = iso.note_for(d("2021-01-01"));
        assert_eq!(
            (note.path.as_str(), note.date),
            ("W/2020-W53.md", d("2020-12-28"))
        );
        assert_eq!(iso.date_of_path("W/2021-W01.md"), Some(d("2021-01-04")));
        // Week 54 does not exist and does not round-trip.
        assert_eq!(iso.date_of_path("W/2021-W54.md"), None);
    }

    #[test]
    fn names_that_do_not_round_trip_are_not_notes() {
        let daily = layout(Period::Daily, "", "YYYY-MM-DD");
        assert_eq!(daily.date_of_path("2026-1-05.md"), None);
        assert_eq!(daily.date_of_path("2026-01-05.md"), Some(d("2026-01-05")));
        let monthly = layout(Period::Monthly, "", "YYYY-MM");
        assert_eq!(monthly.date_of_path("2026-13.md"), None);
        assert_eq!(monthly.note_for(d("2026-08-15")).path, "2026-08.md");
    }
}
