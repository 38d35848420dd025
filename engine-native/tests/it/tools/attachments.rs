//! The attachment tools through the dispatcher on temp vaults: listing with reference
//! counts (hidden notes never count), metadata and base64 content within the governor,
//! moves that rewrite every embed and link (in a vault never indexed too; HITL across
//! folders, nothing changed on a refusal), and the always-confirmed soft delete. A rewrite or
//! move failing part-way puts every file back byte for byte: `faults`' `tools::attachments`.

use base64::Engine;
use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::attachments::{PNG, fixture};
use crate::support::dispatch::{Fixture, caller};

/// [`fixture`], indexed.
fn indexed(extra: serde_json::Value) -> Fixture {
    let fx = fixture(extra);
    fx.ok("index_vault", json!({}));
    fx
}

fn text(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("file")
}

#[test]
fn list_attachments_counts_references_and_pages() {
    let fx = indexed(json!({}));
    let page = fx.ok("list_attachments", json!({"limit": 1}));
    assert_eq!(page["total"], 2);
    assert_eq!(page["attachments"][0]["path"], "assets/doc.pdf");
    assert_eq!(page["attachments"][0]["reference_count"], 1);
    assert_eq!(page["next_offset"], 1);
    let png = fx.ok("list_attachments", json!({"extensions": ["PNG"]}));
    assert_eq!(png["attachments"][0]["reference_count"], 3);
    assert!(png.get("next_offset").is_none());
}

#[test]
fn hidden_notes_never_count_and_hidden_attachments_are_not_listed() {
    let fx = indexed(
        json!({"acl": {"readPaths": ["Open/**", "assets/pic.png"], "writePaths": ["Open/**"]}}),
    );
    let reader = caller("r", &["read:attachments"], None);
    let page = match fx.call(&reader, "list_attachments", json!({})).result {
        Ok(page) => page,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(page["total"], 1);
    assert_eq!(page["attachments"][0]["reference_count"], 2);
    fx.err_as(
        &reader,
        "get_attachment",
        json!({"path": "assets/doc.pdf"}),
        ErrorCode::AclDenied,
    );
}

#[test]
fn get_attachment_returns_metadata_and_base64_content() {
    let fx = indexed(json!({}));
    let info = fx.ok(
        "get_attachment",
        json!({"path": "assets/pic.png", "include_content": true}),
    );
    assert_eq!(info["size"], PNG.len());
    assert_eq!(
        info["referenced_by"],
        json!(["Open/a.md", "Open/b.md", "Secret/c.md"])
    );
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(info["content_base64"].as_str().expect("content"))
        .expect("base64");
    assert_eq!(decoded, PNG);
    fx.err(
        "get_attachment",
        json!({"path": "Open/a.md"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn content_past_the_governor_is_overflow() {
    let fx = indexed(json!({"governor": {"maxResponseBytes": 70000}}));
    std::fs::write(
        fx.vault_dir("main").join("assets/big.bin"),
        vec![7u8; 10_000],
    )
    .expect("big");
    fx.err(
        "get_attachment",
        json!({"path": "assets/big.bin", "include_content": true}),
        ErrorCode::Overflow,
    );
    let info = fx.ok("get_attachment", json!({"path": "assets/big.bin"}));
    assert!(info.get("content_base64").is_none());
}

#[test]
fn a_rename_in_place_rewrites_every_reference_without_confirmation() {
    // Never indexed (as with `index.scanOnStart` off): the move indexes the vault first, so
    // no reference is missed.
    let fx = fixture(json!({}));
    let moved = fx.ok(
        "move_attachment",
        json!({"from": "assets/pic.png", "to": "assets/photo.png"}),
    );
    assert_eq!(
        moved["rewritten_notes"],
        json!(["Open/a.md", "Open/b.md", "Secret/c.md"])
    );
    assert_eq!(
        text(&fx, "Open/a.md"),
        "see ![[photo.png]] and [[photo.png|the pic]]\n"
    );
    assert_eq!(
        text(&fx, "Open/b.md"),
        "md link ![alt](../assets/photo.png)\n"
    );
    assert_eq!(text(&fx, "Secret/c.md"), "![[photo.png]] ![[doc.pdf]]\n");
    assert_eq!(
        std::fs::read(fx.vault_dir("main").join("assets/photo.png")).expect("moved"),
        PNG
    );
}

#[test]
fn crossing_a_folder_needs_confirmation_and_changes_nothing_before_it() {
    let fx = fixture(json!({}));
    std::fs::write(fx.vault_dir("main").join("Open/pic.png"), b"other").expect("twin");
    let args = json!({"from": "assets/pic.png", "to": "media/pic.png"});
    let before = text(&fx, "Open/a.md");
    let asked = fx.err("move_attachment", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(text(&fx, "Open/a.md"), before);
    assert!(fx.exists("main", "assets/pic.png"));
    fx.approve_error(&asked);
    fx.ok("move_attachment", args);
    assert!(fx.exists("main", "media/pic.png") && !fx.exists("main", "assets/pic.png"));
    let b = text(&fx, "Open/b.md");
    assert!(b.contains("../media/pic.png"), "{b}");
}

#[test]
fn a_referencing_note_the_caller_may_not_edit_refuses_the_whole_move() {
    let fx = fixture(
        json!({"acl": {"readPaths": ["**"], "writePaths": ["Open/**", "assets/**"], "deletePaths": ["assets/**"]}}),
    );
    let mover = caller("m", &["write:attachments", "delete:attachments"], None);
    let before: Vec<String> = ["Open/a.md", "Open/b.md", "Secret/c.md"]
        .iter()
        .map(|p| text(&fx, p))
        .collect();
    fx.err_as(
        &mover,
        "move_attachment",
        json!({"from": "assets/pic.png", "to": "assets/renamed.png"}),
        ErrorCode::AclDenied,
    );
    let after: Vec<String> = ["Open/a.md", "Open/b.md", "Secret/c.md"]
        .iter()
        .map(|p| text(&fx, p))
        .collect();
    assert_eq!(before, after);
    assert!(fx.exists("main", "assets/pic.png"));
}

#[test]
fn moving_over_an_existing_file_needs_overwrite_and_confirmation() {
    let fx = fixture(json!({}));
    fx.err(
        "move_attachment",
        json!({"from": "assets/pic.png", "to": "assets/pic.md"}),
        ErrorCode::InvalidInput,
    );
    std::fs::write(fx.vault_dir("main").join("assets/old.png"), b"old").expect("old");
    fx.err(
        "move_attachment",
        json!({"from": "assets/pic.png", "to": "assets/old.png"}),
        ErrorCode::AlreadyExists,
    );
    let args = json!({"from": "assets/pic.png", "to": "assets/old.png", "overwrite": true});
    let asked = fx.err("move_attachment", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(
        std::fs::read(fx.vault_dir("main").join("assets/old.png")).expect("kept"),
        b"old"
    );
    fx.approve_error(&asked);
    fx.ok("move_attachment", args);
    assert_eq!(
        std::fs::read(fx.vault_dir("main").join("assets/old.png")).expect("moved"),
        PNG
    );
}

#[test]
fn delete_attachment_is_always_confirmed_and_reports_references() {
    let fx = indexed(json!({}));
    let asked = fx.err(
        "delete_attachment",
        json!({"path": "assets/doc.pdf"}),
        ErrorCode::ElicitRequired,
    );
    assert!(fx.exists("main", "assets/doc.pdf"));
    fx.approve_error(&asked);
    let done = fx.ok("delete_attachment", json!({"path": "assets/doc.pdf"}));
    assert_eq!(done["reference_count"], 1);
    assert_eq!(done["trashed_to"], ".trash/assets/doc.pdf");
    assert!(!fx.exists("main", "assets/doc.pdf"));
    assert!(fx.exists("main", ".trash/assets/doc.pdf"));
}
