//! `update_task`: one task line rewritten in place.
//!
//! The note is read once; the task is found on `line` by engine-core's list parser and must
//! still read `expected_text` (a moved or edited line is refused with
//! `concurrent_modification`, naming the lines where that text now is). Only the checkbox
//! character and the fields after it change; every other byte of the note is kept. Done
//! (or cancelled) without a ✅ (❌) date gets today's; leaving done (cancelled) removes it,
//! as the Tasks plugin does. Reopening a task done more than 7 days ago needs the user's
//! confirmation. The write carries the SHA-256 of the read.

use engine_core::acl::AclOp;
use engine_core::markdown::{ListItem, extract};
use serde_json::{Value, json};

use super::args::UpdateTask;
use super::item::{date_arg, task_item};
use super::results::TaskUpdated;
use crate::calendar::Date;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::task_line::{DateField, StatusType, TaskFields, edit};
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::tools::common::write_back::write_back;
use crate::vault::VaultError;

/// A reopened task done longer ago than this needs the user's confirmation.
const REOPEN_CONFIRM_DAYS: i64 = 7;

/// Where the task sits in the note's text.
struct TaskLine {
    /// Byte offset of the line's start.
    start: usize,
    /// Byte offset of the line's end (before `\r\n` / `\n`).
    end: usize,
    /// Byte offset of the status character.
    status_at: usize,
    /// The status character.
    status: char,
    /// Byte offset where the task text starts (after `] `).
    text_at: usize,
}

/// Rewrites one task (see the module docs).
pub(super) fn update_task(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: UpdateTask = parse(args)?;
    let note = ctx
        .vault()
        .read(&args.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let text = String::from_utf8(note.bytes).map_err(|_| {
        tool_error_from_vault(
            &VaultError::NotText {
                path: note.path.clone(),
            },
            AclOp::Read,
        )
    })?;
    check_expected(
        &note.path,
        Some(&note.sha256),
        args.expected_sha256.as_deref(),
    )?;
    let items = extract(&text).list_items;
    let task = find_task(&text, &items, &note.path, args.line, &args.expected_text)?;
    let today = Date::from_unix_ms(ctx.clock().now_ms());
    let old_text = &text[task.text_at..task.end];
    let new_status = new_status(&args, task.status)?;
    let new_text = edited_text(&args, old_text, task.status, new_status, today)?;
    let before = &text[task.start..task.end];
    let after = format!(
        "{}{new_status}{}{new_text}",
        &text[task.start..task.status_at],
        &text[task.status_at + task.status.len_utf8()..task.text_at]
    );
    let changed = after != before;
    let result = |sha256: String, path: String| TaskUpdated {
        task: task_item(&path, args.line, new_status, new_text.trim()),
        path,
        line: args.line,
        changed,
        dry_run: args.dry_run,
        before: before.to_owned(),
        after: after.clone(),
        sha256,
    };
    if args.dry_run || !changed {
        return structured(&result(note.sha256, note.path));
    }
    confirm_old_reopen(
        ctx,
        &note.path,
        args.line,
        (task.status, new_status),
        old_text,
        today,
        (before, &after),
    )?;
    let updated = format!("{}{after}{}", &text[..task.start], &text[task.end..]);
    let written = write_back(ctx, &note.path, updated.as_bytes(), Some(note.sha256))?;
    structured(&result(written.sha256, written.path))
}

/// The task on 1-based `line`, which must read `expected` after its checkbox.
fn find_task(
    text: &str,
    items: &[ListItem],
    path: &str,
    line: usize,
    expected: &str,
) -> Result<TaskLine, ToolError> {
    let expected = expected.trim();
    let item = items
        .iter()
        .find(|item| item.task.is_some() && item.position.start.line + 1 == line);
    let Some((item, status)) = item.and_then(|item| Some((item, item.task?))) else {
        return Err(moved(items, path, line, expected, "holds no task"));
    };
    if item.text != expected {
        return Err(moved(
            items,
            path,
            line,
            expected,
            &format!("holds the task '{}'", item.text),
        ));
    }
    let start = item.position.start.offset - item.position.start.col;
    let line_text = &text[start..];
    let end = start + line_text.find('\n').unwrap_or(line_text.len());
    let end = if text[..end].ends_with('\r') {
        end - 1
    } else {
        end
    };
    let after_marker = item.position.start.offset + item.marker.len();
    let open = text[after_marker..end]
        .find('[')
        .map(|i| after_marker + i)
        .ok_or_else(|| ToolError::internal(format!("no checkbox on line {line} of {path}")))?;
    let status_at = open + 1;
    let close = status_at + status.len_utf8();
    let rest = &text[close + 1..end];
    let text_at = close + 1 + (rest.len() - rest.trim_start_matches([' ', '\t']).len());
    Ok(TaskLine {
        start,
        end,
        status_at,
        status,
        text_at,
    })
}

/// `concurrent_modification`: `line` no longer holds the expected task; names the lines
/// where a task with that text is now.
fn moved(items: &[ListItem], path: &str, line: usize, expected: &str, why: &str) -> ToolError {
    let now_at: Vec<usize> = items
        .iter()
        .filter(|item| item.task.is_some() && item.text == expected)
        .map(|item| item.position.start.line + 1)
        .collect();
    ToolError::new(
        ErrorCode::ConcurrentModification,
        format!("line {line} of {path} {why}, not '{expected}': the note changed since it was listed; call list_tasks again and retry with the new line"),
    )
    .with_details(json!({"path": path, "line": line, "expected_text": expected, "task_now_at_lines": now_at}))
}

/// The status character the call asks for (the current one when it asks for none).
fn new_status(args: &UpdateTask, current: char) -> Result<char, ToolError> {
    match (&args.status, args.toggle) {
        (Some(_), true) => Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give either 'status' or 'toggle', not both",
        )),
        (None, true) => Ok(if StatusType::of(current) == StatusType::Done {
            ' '
        } else {
            'x'
        }),
        (Some(status), false) => {
            let mut chars = status.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if c != '\n' && c != '\r' && c != ']' => Ok(c),
                _ => Err(ToolError::new(
                    ErrorCode::InvalidInput,
                    format!(
                        "status '{status}' is not one character: pass the character to put between the brackets, e.g. \"x\""
                    ),
                )),
            }
        }
        (None, false) => Ok(current),
    }
}

/// The task text after the status change and the requested field edits.
fn edited_text(
    args: &UpdateTask,
    old: &str,
    old_status: char,
    new_status: char,
    today: Date,
) -> Result<String, ToolError> {
    let mut text = old.to_owned();
    let (was, now) = (StatusType::of(old_status), StatusType::of(new_status));
    for (status, field) in [
        (StatusType::Done, DateField::Done),
        (StatusType::Cancelled, DateField::Cancelled),
    ] {
        let has = TaskFields::read(&text).date(field).is_some();
        if now == status && was != status && !has {
            text = edit::set_date(&text, field, Some(today));
        } else if was == status && now != status && has {
            text = edit::set_date(&text, field, None);
        }
    }
    if let Some(dates) = &args.set_dates {
        for (field, value) in dates.given() {
            let name = format!("set_dates.{}", field.dataview_key());
            text = edit::set_date(&text, field, Some(date_arg(&name, value)?));
        }
    }
    for field in &args.clear_dates {
        text = edit::set_date(&text, *field, None);
    }
    if let Some(priority) = args.priority {
        text = edit::set_priority(&text, priority);
    }
    Ok(text)
}

/// Asks the user to confirm reopening a task done more than [`REOPEN_CONFIRM_DAYS`] ago.
fn confirm_old_reopen(
    ctx: &ToolContext<'_>,
    path: &str,
    line: usize,
    (old_status, new_status): (char, char),
    old_text: &str,
    today: Date,
    (before, after): (&str, &str),
) -> Result<(), ToolError> {
    let reopened =
        StatusType::of(old_status) == StatusType::Done && !StatusType::of(new_status).is_closed();
    let done_on = TaskFields::read(old_text).date(DateField::Done);
    match done_on {
        Some(done) if reopened && today.days() - done.days() > REOPEN_CONFIRM_DAYS => {
            ctx.confirm(json!({
                "tool": ctx.tool().name(),
                "vault": ctx.vault_id(),
                "path": path,
                "line": line,
                "reason": format!("reopens a task done on {done}, more than {REOPEN_CONFIRM_DAYS} days ago"),
                "before": before,
                "after": after,
            }))
        }
        _ => Ok(()),
    }
}
