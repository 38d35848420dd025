//! `vault_context`'s `bootstrap` mode: the hand-off note first, then the query's passages,
//! in one token budget; a missing hand-off note and one the caller may not read answer the
//! same words; the configured hand-off note; `query` mode is `get_context`'s packing.

use serde_json::{Value, json};

use super::{context_vault, fixture, tokens};
use crate::support::dispatch::Fixture;

const HANDOFF: &str = "---\nstatus: open\n---\nNext: finish the zeppelin hangar chapter.\n";

#[test]
fn without_a_query_the_handoff_note_is_read() {
    let fx = fixture(json!({}));
    fx.write("main", "_next-session.md", HANDOFF);
    let got = fx.ok("vault_context", json!({}));
    assert_eq!(got["mode"], "bootstrap");
    let handoff = &got["handoff"];
    assert_eq!(handoff["path"], "_next-session.md");
    assert_eq!(handoff["found"], true);
    assert_eq!(
        handoff["note"]["content"],
        "Next: finish the zeppelin hangar chapter.\n"
    );
    assert_eq!(handoff["note"]["frontmatter"], json!({"status": "open"}));
    assert_eq!(got["notes"], json!([]));
    assert!(got["tokens_used"].as_u64().expect("tokens") > 0);
}

#[test]
fn bootstrap_with_a_query_packs_both_in_one_budget() {
    let fx = fixture(json!({}));
    context_vault(&fx);
    fx.write("main", "_next-session.md", HANDOFF);
    fx.ok("index_vault", json!({}));
    let max = 600;
    let got = fx.ok(
        "vault_context",
        json!({"query": "zeppelin", "mode": "bootstrap", "max_tokens": max}),
    );
    assert_eq!(got["handoff"]["found"], true);
    assert!(!got["notes"].as_array().expect("notes").is_empty(), "{got}");
    let used = got["tokens_used"].as_u64().expect("used") as usize;
    assert!(used <= max, "{used}");
    let plain = fx.ok(
        "get_context",
        json!({"query": "zeppelin", "max_tokens": max}),
    );
    let plain_used = plain["tokens_used"].as_u64().expect("used") as usize;
    assert!(
        used > tokens("Next: finish the zeppelin hangar chapter.\n"),
        "the hand-off note counts: {used}"
    );
    assert!(plain_used <= max);
    // a query without a mode is get_context's packing
    let query = fx.ok(
        "vault_context",
        json!({"query": "zeppelin", "max_tokens": max}),
    );
    assert_eq!(query["mode"], "query");
    assert!(query.get("handoff").is_none());
    assert_eq!(query["notes"], plain["notes"]);
    assert_eq!(query["tokens_used"], plain["tokens_used"]);
}

#[test]
fn a_long_handoff_note_is_cut_to_the_budget() {
    let fx = fixture(json!({}));
    fx.write("main", "_next-session.md", &"step after step\n".repeat(500));
    let got = fx.ok("vault_context", json!({"max_tokens": 100}));
    let note = &got["handoff"]["note"];
    assert_eq!(note["truncated"], true, "{got}");
    assert!(got["tokens_used"].as_u64().expect("used") <= 100);
    assert!(!note["content"].as_str().expect("content").is_empty());
}

/// The answer of a bootstrap call on a server with `acl`, where `_next-session.md` is
/// written when `present`.
fn missing_or_hidden(acl: Value, present: bool) -> Value {
    let fx: Fixture = fixture(json!({"acl": acl}));
    if present {
        fx.write("main", "_next-session.md", HANDOFF);
    }
    fx.ok("vault_context", json!({"mode": "bootstrap"}))
}

#[test]
fn a_missing_and_an_unreadable_handoff_note_answer_alike() {
    let missing = missing_or_hidden(json!({"readPaths": ["**"]}), false);
    assert_eq!(missing["handoff"]["found"], false);
    assert!(missing["handoff"].get("note").is_none());
    let message = missing["handoff"]["message"].as_str().expect("message");
    assert!(
        message.contains("no hand-off note at _next-session.md"),
        "{message}"
    );
    let hidden_acl = json!({"readPaths": ["Public/**"]});
    assert_eq!(
        missing_or_hidden(hidden_acl.clone(), true),
        missing_or_hidden(hidden_acl, false)
    );
    assert_eq!(
        missing_or_hidden(json!({"readPaths": ["Public/**"]}), true)["handoff"],
        missing["handoff"]
    );
}

#[test]
fn the_handoff_note_is_configured_per_vault() {
    let fx = fixture(json!({"vaults": [
        {"id": "main", "path": "main", "bootstrap": {"handoffNote": "/Meta/handoff.md"}},
        {"id": "other", "path": "other"}
    ]}));
    fx.write("main", "_next-session.md", "not this one\n");
    fx.write("main", "Meta/handoff.md", "this one\n");
    let got = fx.ok("vault_context", json!({}));
    assert_eq!(got["handoff"]["path"], "Meta/handoff.md");
    assert_eq!(got["handoff"]["note"]["content"], "this one\n");
    // the other vault keeps the default
    let other = fx.ok("vault_context", json!({"vault": "other"}));
    assert_eq!(other["handoff"]["path"], "_next-session.md");
    assert_eq!(other["handoff"]["found"], false);
}

#[test]
fn query_mode_needs_a_query_and_get_context_is_unchanged() {
    let fx = fixture(json!({}));
    let error = fx.err(
        "vault_context",
        json!({"mode": "query"}),
        obsidian_tc::errors::ErrorCode::InvalidInput,
    );
    assert!(error.message.contains("needs a query"), "{}", error.message);
    fx.err(
        "get_context",
        json!({}),
        obsidian_tc::errors::ErrorCode::ValidationError,
    );
    fx.err(
        "get_context",
        json!({"query": "x", "mode": "bootstrap"}),
        obsidian_tc::errors::ErrorCode::ValidationError,
    );
}
