//! `move_attachment` failing part-way (a note it rewrites, or the file it would replace, made
//! immutable) puts every file of the vault back byte for byte (see `it`'s
//! `tools::attachments` for the rest of the attachment tools).

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::attachments::fixture;
use crate::support::dispatch::{Fixture, Immutable, snapshot};

/// Calls `move_attachment` with `args` while `immutable` cannot be replaced, and checks the
/// call fails with every file of the vault put back byte for byte.
fn fails_and_rolls_back(fx: &Fixture, args: serde_json::Value, immutable: &str) {
    let root = fx.vault_dir("main");
    let before = snapshot(&root);
    let guard = Immutable::set(root.join(immutable));
    let outcome = fx.call(&obsidian_tc::auth::Caller::stdio(), "move_attachment", args);
    drop(guard);
    let error = outcome
        .result
        .expect_err("the immutable file refuses the move");
    assert_eq!(error.details["rolled_back"], true, "{error}");
    assert_eq!(snapshot(&root), before, "a file changed after the rollback");
}

#[test]
fn a_move_failing_part_way_leaves_every_file_byte_identical() {
    let fx = fixture(json!({}));
    // The last note rewritten is immutable: the two rewrites before it are undone.
    let rename = json!({"from": "assets/pic.png", "to": "assets/photo.png"});
    fails_and_rolls_back(&fx, rename.clone(), "Secret/c.md");
    // The destination it would replace is immutable: the move itself fails after every
    // rewrite, and the rewrites are undone.
    std::fs::write(fx.vault_dir("main").join("assets/old.png"), b"old").expect("old");
    let replace = json!({"from": "assets/pic.png", "to": "assets/old.png", "overwrite": true});
    let asked = fx.err(
        "move_attachment",
        replace.clone(),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    fails_and_rolls_back(&fx, replace, "assets/old.png");
    // Nothing is left half-done: the same move then succeeds.
    let moved = fx.ok("move_attachment", rename);
    assert_eq!(moved["links_rewritten"], 4);
}
