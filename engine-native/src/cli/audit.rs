//! `obsidian-tc audit`: the operator reads the audit log of every vault (or one) as a table,
//! or with `--json` as the page `query_audit_log` answers ([`crate::audit::audit_page`], so
//! both give the same rows for the same filter).

use crate::audit::{AuditPage, AuditRow, audit_page, parse_time};
use crate::cli::args::AuditArgs;
use crate::cli::source::store_for;
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, print_result};
use crate::runtime::{Clock, SystemClock};
use crate::store::EventFilter;

/// The most characters of the paths column of one table line.
const PATHS_WIDTH: usize = 60;

/// Runs `audit`.
pub fn run_audit(args: AuditArgs) -> u8 {
    let store = match store_for(&args.flags) {
        Ok(store) => store,
        Err(code) => return code,
    };
    let now = SystemClock.now_seconds();
    let time = |flag: &str, text: Option<&str>| {
        text.map(|text| parse_time(text, now).map_err(|message| format!("--{flag}: {message}")))
            .transpose()
    };
    let (since, until) = match (
        time("since", args.since.as_deref()),
        time("until", args.until.as_deref()),
    ) {
        (Ok(since), Ok(until)) => (since, until),
        (Err(message), _) | (_, Err(message)) => {
            eprintln!("{message}");
            return EXIT_USAGE;
        }
    };
    let filter = EventFilter {
        vault: args.vault,
        since,
        until,
        tool: args.tool,
        caller: args.caller,
        outcome: args.outcome,
        path_prefix: args.path_prefix,
        before_id: None,
    };
    let page = match audit_page(&store, &filter, args.cursor.as_deref(), args.limit, |_| {
        true
    }) {
        Ok(page) => page,
        Err(error) => {
            eprintln!("{error}");
            return EXIT_FAILURE;
        }
    };
    if args.json {
        return print_result(&page).map_or_else(|code| code, |()| EXIT_OK);
    }
    print_table(&page);
    EXIT_OK
}

/// One line per row under a header, then the cursor of the next page.
fn print_table(page: &AuditPage) {
    if page.rows.is_empty() {
        println!("no audited calls match");
        return;
    }
    let cells: Vec<[String; 7]> = page.rows.iter().map(cells).collect();
    let header = ["TIME", "VAULT", "TOOL", "CALLER", "OUTCOME", "MS", "PATHS"].map(str::to_owned);
    let mut widths = header.clone().map(|cell| cell.chars().count());
    for row in &cells {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for row in std::iter::once(&header).chain(&cells) {
        let line: Vec<String> = row
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        println!("{}", line.join("  ").trim_end());
    }
    if let Some(cursor) = &page.cursor {
        println!("more: --cursor {cursor}");
    }
}

/// The table cells of one row: the outcome is `ok` or the error code, a replay is marked.
fn cells(row: &AuditRow) -> [String; 7] {
    let mut outcome = row.code.clone().unwrap_or_else(|| row.outcome.clone());
    if row.replayed {
        outcome.push_str(" (replayed)");
    }
    let mut paths = row.paths.join(", ");
    if paths.chars().count() > PATHS_WIDTH {
        paths = paths.chars().take(PATHS_WIDTH - 1).collect::<String>() + "…";
    }
    [
        row.time.clone(),
        if row.vault.is_empty() {
            "-".to_owned()
        } else {
            row.vault.clone()
        },
        row.tool.clone(),
        row.caller.clone(),
        outcome,
        row.duration_ms.to_string(),
        paths,
    ]
}
