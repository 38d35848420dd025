//! Periodic notes (daily, weekly, monthly, quarterly, yearly) as Obsidian lays them out:
//!
//! - [`moment`]: moment.js name formats (English locale), both ways.
//! - [`period`]: the periods and the first day of the period a date is in.
//! - [`settings`]: the folder, format and template of a period from the Periodic Notes
//!   plugin or the core Daily notes settings.
//! - [`layout`]: the path of a period's note and the date a note's path names.
//! - [`template`]: the core Templates placeholders of a new note.
//!
//! Pure: the tools in `crate::tools::periodic` read the settings through the vault.

pub mod layout;
pub mod moment;
pub mod period;
pub mod settings;
pub mod template;

pub use layout::{NoteLayout, NoteName};
pub use moment::{MomentFormat, TimeOfDay, UnsupportedToken};
pub use period::Period;
pub use settings::{PeriodSettings, SettingsSource, resolve};
pub use template::{TemplateValues, expand};
