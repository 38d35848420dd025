//! `list_periodic_notes`: the existing notes of a period in a date range, a page at a time.
//! A file counts only when its path is exactly the one the period's settings give some date
//! (the name reads back into a date and formats to the same path), and only notes the
//! caller may read are listed or counted.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::locate::layout_of;
use crate::calendar::Date;
use crate::errors::{ErrorCode, ToolError};
use crate::periodic::{Period, SettingsSource};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::{CursorLength, Page, PageArgs, Paging};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{EntryKind, VaultError};

/// The arguments of `list_periodic_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListPeriodicNotes {
    /// `daily`, `weekly`, `monthly`, `quarterly` or `yearly`.
    period: Period,
    /// The first day of the range, `YYYY-MM-DD` (the period it falls in is included).
    #[serde(default)]
    #[schemars(length(min = 10, max = 10))]
    from: Option<String>,
    /// The last day of the range, `YYYY-MM-DD`.
    #[serde(default)]
    #[schemars(length(min = 10, max = 10))]
    to: Option<String>,
    /// Newest first (default: oldest first).
    #[serde(default)]
    newest_first: bool,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<PeriodicPaging>,
}

/// `list_periodic_notes` pages by 100 notes (at most 1000).
struct PeriodicPaging;

impl Paging for PeriodicPaging {
    const ITEMS: &'static str = "notes";
    /// A cursor is the `YYYY-MM-DD` date of the previous page's last note.
    const CURSOR: CursorLength = CursorLength::between(10, 10);
}

/// One listed periodic note.
#[derive(Debug, Serialize, JsonSchema)]
struct ListedNote {
    /// The first day of the note's period (`YYYY-MM-DD`).
    date: String,
    /// The vault-relative path.
    path: String,
    /// Size in bytes.
    size: u64,
    /// Last modification, milliseconds since the Unix epoch.
    modified_ms: i64,
}

/// A page of `list_periodic_notes`.
#[derive(Debug, Serialize, JsonSchema)]
struct PeriodicNotePage {
    /// The period.
    period: Period,
    /// Which Obsidian settings give the folder and format.
    settings_source: SettingsSource,
    /// The notes of this page, by date, with `total_count` and `cursor`.
    #[serde(flatten)]
    page: Page<ListedNote>,
}

/// The `list_periodic_notes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("list_periodic_notes", "List periodic notes", "List the existing daily, weekly, monthly, quarterly or yearly notes, optionally between two days, oldest first (or newest_first), with each one's period start and path, as the vault's Daily notes / Periodic Notes plugin lays them out. Paged: pass the returned cursor to get the next page."),
"periodic",
(input_schema::<ListPeriodicNotes>(), output_schema::<PeriodicNotePage>()),
list_periodic_notes,
)
.keywords(&["past daily notes", "previous weekly notes", "journal entries", "between dates", "last month", "recent daily notes"])
.scopes(&["read:periodic"])
}

fn list_periodic_notes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListPeriodicNotes = parse(args)?;
    let date = |field: &str, text: Option<&str>| {
        text.map(|text| {
            Date::parse_iso(text).ok_or_else(|| {
                ToolError::new(
                    ErrorCode::InvalidInput,
                    format!("{field} '{text}' is not a date; give a day that exists as YYYY-MM-DD"),
                )
            })
        })
        .transpose()
    };
    let layout = layout_of(ctx, args.period)?;
    let from = date("from", args.from.as_deref())?
        .map(|from| args.period.start(from, layout.week_start()));
    let to = date("to", args.to.as_deref())?;
    let after = date("cursor", args.page.cursor())?;
    let limit = args.page.limit();
    let folder = Some(layout.settings.folder.as_str()).filter(|folder| !folder.is_empty());
    let entries = match ctx.vault().list(folder) {
        Ok(entries) => entries,
        Err(VaultError::NotFound { .. }) => Vec::new(),
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    let mut notes: Vec<(Date, ListedNote)> = entries
        .into_iter()
        .filter(|entry| entry.kind == EntryKind::File)
        .filter(|entry| ctx.may_list(&entry.path))
        .filter_map(|entry| {
            let date = layout.date_of_path(&entry.path)?;
            let in_range = from.is_none_or(|from| date >= from) && to.is_none_or(|to| date <= to);
            in_range.then(|| {
                let listed = ListedNote {
                    date: date.to_string(),
                    path: entry.path,
                    size: entry.size,
                    modified_ms: entry.modified_ms,
                };
                (date, listed)
            })
        })
        .collect();
    notes.sort_by_key(|(date, _)| *date);
    if args.newest_first {
        notes.reverse();
    }
    let total_count = notes.len();
    let mut page: Vec<(Date, ListedNote)> = notes
        .into_iter()
        .filter(|(date, _)| {
            after.is_none_or(|after| {
                if args.newest_first {
                    *date < after
                } else {
                    *date > after
                }
            })
        })
        .take(limit.saturating_add(1))
        .collect();
    let cursor = if page.len() > limit {
        page.truncate(limit);
        page.last().map(|(date, _)| date.to_string())
    } else {
        None
    };
    structured(&PeriodicNotePage {
        period: layout.period,
        settings_source: layout.settings.source,
        page: Page {
            items: page.into_iter().map(|(_, listed)| listed).collect(),
            total_count,
            cursor,
        },
    })
}
