//! The note a periodic tool works on: the period's layout from the vault's Obsidian settings
//! (read through [`Vault::read_setting`]), the date (today by the dispatch clock when none is
//! given) and the note's path.
//!
//! [`Vault::read_setting`]: crate::vault::Vault::read_setting

use engine_core::acl::AclOp;

use crate::calendar::Date;
use crate::errors::{ErrorCode, ToolError};
use crate::periodic::{NoteLayout, NoteName, Period, resolve};
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::ObsidianSetting;

/// The layout of `period`'s notes in the caller's vault.
pub(super) fn layout_of(ctx: &ToolContext<'_>, period: Period) -> Result<NoteLayout, ToolError> {
    let read = |setting| {
        ctx.vault()
            .read_setting(setting)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Read))
    };
    let daily = read(ObsidianSetting::DailyNotes)?;
    let plugin = read(ObsidianSetting::PeriodicNotes)?;
    let settings = resolve(period, daily.as_ref(), plugin.as_ref());
    let source = settings.source;
    NoteLayout::new(period, settings).map_err(|error| {
        ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "the {} note format configured in Obsidian ({source:?} settings) is not usable: {error}",
                period.name()
            ),
        )
    })
}

/// `date` (ISO `YYYY-MM-DD`), or today (UTC) by the dispatch clock.
pub(super) fn date_or_today(ctx: &ToolContext<'_>, date: Option<&str>) -> Result<Date, ToolError> {
    match date {
        None => Ok(Date::from_unix_ms(ctx.clock().now_ms())),
        Some(text) => Date::parse_iso(text).ok_or_else(|| {
            ToolError::new(
                ErrorCode::InvalidInput,
                format!("'{text}' is not a date; give a day that exists as YYYY-MM-DD"),
            )
        }),
    }
}

/// The layout of `period` and its note for `date` (today when `None`).
pub(super) fn locate(
    ctx: &ToolContext<'_>,
    period: Period,
    date: Option<&str>,
) -> Result<(NoteLayout, NoteName), ToolError> {
    let date = date_or_today(ctx, date)?;
    let layout = layout_of(ctx, period)?;
    let note = layout.note_for(date);
    Ok((layout, note))
}
