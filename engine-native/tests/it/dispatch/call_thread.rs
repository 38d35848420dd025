//! A call's effects follow the thread that runs it: the undo journal records, and the write
//! queue serializes, the changes made on the handler's thread. A handler that changed the
//! vault from a thread of its own would escape both; the served vault refuses such a change
//! (`outside_call`, nothing written) instead of losing its undo silently.

use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::runtime::{ToolContext, ToolDef};
use obsidian_tc::vault::WriteOptions;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, path_tool};

/// Writes `off thread\n` to `path`, on the handler's thread when `on_own_thread` is false,
/// else from a thread it starts; the vault's error comes back as the tool error's message.
fn write_from(
    ctx: &ToolContext<'_>,
    args: &Value,
    on_own_thread: bool,
) -> Result<Value, ToolError> {
    let path = args["path"].as_str().unwrap_or_default();
    let vault = ctx.vault();
    let options = WriteOptions {
        overwrite: true,
        expected_sha256: None,
    };
    let write = move || vault.write(path, b"off thread\n", &options);
    let written = if on_own_thread {
        std::thread::scope(|scope| scope.spawn(write).join().expect("the writer thread"))
    } else {
        write()
    };
    written.map_err(|error| ToolError::internal(format!("{}: {error}", error.code())))?;
    Ok(json!({"path": path}))
}

fn tools() -> Vec<ToolDef> {
    vec![
        path_tool(
            (
                "test_write_here",
                "Write here",
                "Writes on the call's thread.",
            ),
            |ctx, args| write_from(ctx, &args, false),
        ),
        path_tool(
            (
                "test_write_elsewhere",
                "Write elsewhere",
                "Writes from another thread.",
            ),
            |ctx, args| write_from(ctx, &args, true),
        ),
    ]
}

#[test]
fn a_change_from_another_thread_is_refused_and_changes_nothing() {
    let fx = Fixture::with_tools(json!({}), tools());
    fx.write("main", "a.md", "before\n");
    let error = fx.err(
        "test_write_elsewhere",
        json!({"path": "a.md"}),
        ErrorCode::Internal,
    );
    assert!(
        error.message.starts_with("outside_call: "),
        "{}",
        error.message
    );
    let on_disk = std::fs::read_to_string(fx.vault_dir("main").join("a.md")).expect("a.md");
    assert_eq!(on_disk, "before\n");
    // Nothing was recorded as changed, so there is nothing to undo.
    let undo = fx.ok("undo_last_change", json!({"dry_run": true}));
    assert_eq!(undo["files"], json!([]), "{undo}");
}

#[test]
fn a_change_on_the_calls_thread_is_journaled_and_undone() {
    let fx = Fixture::with_tools(json!({}), tools());
    fx.write("main", "a.md", "before\n");
    fx.ok("test_write_here", json!({"path": "a.md"}));
    let on_disk = || std::fs::read_to_string(fx.vault_dir("main").join("a.md")).expect("a.md");
    assert_eq!(on_disk(), "off thread\n");
    fx.ok("undo_last_change", json!({}));
    assert_eq!(on_disk(), "before\n");
}
