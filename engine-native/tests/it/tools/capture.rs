//! `capture_note` through the dispatcher: a timestamped note from the dispatch clock in the
//! inbox folder (default `Inbox`, or the vault's `inboxFolder`), never overwriting, ACL.

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

#[test]
fn captures_get_timestamped_names_and_never_overwrite() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "Inbox/2026-01-01 000000.md", "earlier\n");
    let first = fx.ok("capture_note", json!({"content": "idea one\n"}));
    assert_eq!(first["path"], "Inbox/2026-01-01 000000 2.md");
    let second = fx.ok("capture_note", json!({"content": "idea two\n"}));
    assert_eq!(second["path"], "Inbox/2026-01-01 000000 3.md");
    fx.clock.advance(61_000);
    let titled = fx.ok(
        "capture_note",
        json!({"content": "x", "title": "Call: Bob/Alice"}),
    );
    assert_eq!(titled["path"], "Inbox/2026-01-01 000101 Call- Bob-Alice.md");
    let earlier = std::fs::read_to_string(fx.vault_dir("main").join("Inbox/2026-01-01 000000.md"));
    assert_eq!(earlier.expect("kept"), "earlier\n");
}

#[test]
fn the_inbox_folder_comes_from_the_vault_config() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "vaults": [{"id": "main", "path": "main", "inboxFolder": "00 Inbox/"}]
    }));
    let made = fx.ok("capture_note", json!({"content": "x"}));
    assert_eq!(made["path"], "00 Inbox/2026-01-01 000000.md");
    assert!(fx.exists("main", "00 Inbox/2026-01-01 000000.md"));
}

#[test]
fn a_caller_who_may_not_write_the_inbox_is_refused_and_nothing_is_written() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["**"], "writePaths": ["Notes/**"]}
    }));
    let writer = caller("w", &["write:notes"], None);
    fx.err_as(
        &writer,
        "capture_note",
        json!({"content": "x"}),
        ErrorCode::AclDenied,
    );
    assert!(!fx.exists("main", "Inbox"));
}
