//! What `get_periodic_note`, `create_periodic_note` and `find_or_create_periodic_note`
//! return.

use schemars::JsonSchema;
use serde::Serialize;

use super::note_io::NoteState;
use crate::periodic::{NoteLayout, NoteName, Period, SettingsSource};

/// A periodic note, found or created.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct PeriodicNote {
    /// The period.
    period: Period,
    /// The first day of the note's period (`YYYY-MM-DD`).
    date: String,
    /// The note's vault-relative path.
    path: String,
    /// Whether the note exists (now).
    exists: bool,
    /// Whether this call created it.
    created: bool,
    /// Which Obsidian settings give the folder, format and template.
    settings_source: SettingsSource,
    /// The note's text (when it exists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content: Option<String>,
    /// The SHA-256 of the note's bytes (when it exists; pass it as `expected_sha256`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sha256: Option<String>,
    /// The note's size in bytes (when it exists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<usize>,
}

impl PeriodicNote {
    /// The note `note` of `layout`, absent.
    pub(super) fn absent(layout: &NoteLayout, note: &NoteName) -> PeriodicNote {
        PeriodicNote {
            period: layout.period,
            date: note.date.to_string(),
            path: note.path.clone(),
            exists: false,
            created: false,
            settings_source: layout.settings.source,
            content: None,
            sha256: None,
            size: None,
        }
    }

    /// The note as read (or just written: `created`).
    pub(super) fn present(
        layout: &NoteLayout,
        note: &NoteName,
        state: NoteState,
        created: bool,
    ) -> PeriodicNote {
        PeriodicNote {
            path: state.path,
            exists: true,
            created,
            content: Some(state.text),
            sha256: Some(state.sha256),
            size: Some(state.size),
            ..PeriodicNote::absent(layout, note)
        }
    }
}
