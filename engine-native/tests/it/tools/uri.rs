//! `generate_uri` through the dispatcher: the exact URI of every action, encoding of
//! spaces, reserved characters and Unicode, refused argument combinations and paths, and
//! that it needs no scope and leaves the vault untouched.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

/// The URI `generate_uri` builds for `args` in vault `main` (folder name `main`).
fn uri(fx: &Fixture, args: Value) -> String {
    let out = fx.ok("generate_uri", args.clone());
    assert_eq!(out["action"], args["action"]);
    out["uri"].as_str().expect("uri").to_owned()
}

#[test]
fn obsidian_actions_build_the_documented_uris() {
    let fx = fixture();
    let cases = [
        (json!({"action": "open"}), "obsidian://open?vault=main"),
        (
            json!({"action": "open", "path": "Projects/My Plan.md"}),
            "obsidian://open?vault=main&file=Projects%2FMy%20Plan.md",
        ),
        (
            json!({"action": "open", "path": "Plan.md", "heading": "Next steps"}),
            "obsidian://open?vault=main&file=Plan.md%23Next%20steps",
        ),
        (
            json!({"action": "open", "path": "Plan.md", "block": "^intro"}),
            "obsidian://open?vault=main&file=Plan.md%23%5Eintro",
        ),
        (
            json!({"action": "new", "path": "Inbox/idea.md"}),
            "obsidian://new?vault=main&file=Inbox%2Fidea.md",
        ),
        (
            json!({"action": "new", "path": "Inbox/idea.md", "content": "- [ ] call Ana\n",
                   "mode": "append", "silent": true}),
            "obsidian://new?vault=main&file=Inbox%2Fidea.md&content=-%20%5B%20%5D%20call%20Ana%0A&append=true&silent=true",
        ),
        (json!({"action": "daily"}), "obsidian://daily?vault=main"),
        (
            json!({"action": "daily", "content": "100% (done) & more?", "mode": "overwrite"}),
            "obsidian://daily?vault=main&content=100%25%20(done)%20%26%20more%3F&overwrite=true",
        ),
        (json!({"action": "search"}), "obsidian://search?vault=main"),
        (
            json!({"action": "search", "query": "tag:#work \"a b\""}),
            "obsidian://search?vault=main&query=tag%3A%23work%20%22a%20b%22",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(uri(&fx, args.clone()), expected, "{args}");
        assert!(fx.ok("generate_uri", args).get("requires_plugin").is_none());
    }
}

#[test]
fn advanced_uri_actions_build_adv_uri_links_and_name_the_plugin() {
    let fx = fixture();
    let cases = [
        (
            json!({"action": "navigate", "path": "Plan.md"}),
            "obsidian://adv-uri?vault=main&filepath=Plan.md",
        ),
        (
            json!({"action": "navigate", "path": "Plan.md", "heading": "Goal"}),
            "obsidian://adv-uri?vault=main&filepath=Plan.md&heading=Goal",
        ),
        (
            json!({"action": "navigate", "path": "Plan.md", "block": "12345"}),
            "obsidian://adv-uri?vault=main&filepath=Plan.md&block=12345",
        ),
        (
            json!({"action": "navigate", "path": "Plan.md", "line": 12}),
            "obsidian://adv-uri?vault=main&filepath=Plan.md&line=12",
        ),
        (
            json!({"action": "write", "path": "my-file.md", "content": "Hello World"}),
            "obsidian://adv-uri?vault=main&filepath=my-file.md&data=Hello%20World",
        ),
        (
            json!({"action": "write", "path": "Plan.md", "content": "- item", "mode": "prepend",
                   "heading": "Tasks"}),
            "obsidian://adv-uri?vault=main&filepath=Plan.md&data=-%20item&mode=prepend&heading=Tasks",
        ),
        (
            json!({"action": "write", "path": "Log.md", "content": "x", "mode": "new"}),
            "obsidian://adv-uri?vault=main&filepath=Log.md&data=x&mode=new",
        ),
        (
            json!({"action": "command", "command_id": "workspace:export-pdf"}),
            "obsidian://adv-uri?vault=main&commandid=workspace%3Aexport-pdf",
        ),
        (
            json!({"action": "command", "command_id": "editor:toggle-bold", "path": "Plan.md",
                   "line": 3, "mode": "append"}),
            "obsidian://adv-uri?vault=main&filepath=Plan.md&commandid=editor%3Atoggle-bold&line=3&mode=append",
        ),
    ];
    for (args, expected) in cases {
        assert_eq!(uri(&fx, args.clone()), expected, "{args}");
        let out = fx.ok("generate_uri", args);
        assert_eq!(out["requires_plugin"], "obsidian-advanced-uri");
    }
}

#[test]
fn unicode_is_utf8_percent_encoded_in_nfc() {
    let fx = fixture();
    let expected = "obsidian://open?vault=main&file=Caf%C3%A9%2F%E6%97%A5%E6%9C%AC%E8%AA%9E%20%E3%83%8E%E3%83%BC%E3%83%88.md";
    assert_eq!(
        uri(
            &fx,
            json!({"action": "open", "path": "Café/日本語 ノート.md"})
        ),
        expected
    );
    // The decomposed spelling (e + combining acute) gives the same URI.
    assert_eq!(
        uri(
            &fx,
            json!({"action": "open", "path": "Cafe\u{301}/日本語 ノート.md"})
        ),
        expected
    );
    assert_eq!(
        uri(&fx, json!({"action": "search", "query": "naïve 🙂"})),
        "obsidian://search?vault=main&query=na%C3%AFve%20%F0%9F%99%82"
    );
}

#[test]
fn the_vault_is_the_served_folder_name_unless_vault_name_is_given() {
    let fx = fixture();
    assert_eq!(
        uri(&fx, json!({"action": "open", "vault": "other"})),
        "obsidian://open?vault=other"
    );
    assert_eq!(
        uri(&fx, json!({"action": "open", "vault_name": "My Vault/2"})),
        "obsidian://open?vault=My%20Vault%2F2"
    );
    fx.err(
        "generate_uri",
        json!({"action": "open", "vault": "nope"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn arguments_the_action_cannot_use_are_a_validation_error_naming_the_fix() {
    let fx = fixture();
    let refused = [
        (
            json!({"action": "search", "path": "a.md"}),
            "does not take 'path'",
        ),
        (json!({"action": "open", "heading": "H"}), "needs 'path'"),
        (
            json!({"action": "open", "path": "a.md", "heading": "H", "block": "b"}),
            "at most one",
        ),
        (
            json!({"action": "navigate", "path": "a.md", "line": 2, "heading": "H"}),
            "at most one",
        ),
        (json!({"action": "new"}), "needs 'path'"),
        (
            json!({"action": "new", "path": "a.md", "mode": "prepend"}),
            "mode 'prepend'",
        ),
        (
            json!({"action": "daily", "path": "a.md"}),
            "does not take 'path'",
        ),
        (
            json!({"action": "open", "silent": true}),
            "does not take 'silent'",
        ),
        (
            json!({"action": "write", "path": "a.md"}),
            "needs 'content'",
        ),
        (
            json!({"action": "write", "path": "a.md", "content": "x", "heading": "H"}),
            "only with mode",
        ),
        (json!({"action": "command"}), "needs 'command_id'"),
        (
            json!({"action": "command", "command_id": "app:reload", "mode": "append"}),
            "needs 'path'",
        ),
        (
            json!({"action": "command", "command_id": "Export to PDF"}),
            "not a command id",
        ),
        (
            json!({"action": "open", "path": "a.md", "block": "a b"}),
            "not a block id",
        ),
        (
            json!({"action": "open", "path": "a.md", "heading": "one\ntwo"}),
            "one line",
        ),
        (
            json!({"action": "open", "vault_name": "a\u{7}b"}),
            "one line",
        ),
        (json!({"action": "launch"}), "action"),
        (json!({"action": "open", "file": "a.md"}), "file"),
    ];
    for (args, needle) in refused {
        let error = fx.err("generate_uri", args.clone(), ErrorCode::ValidationError);
        assert!(
            error.message.contains(needle),
            "{args}: {} lacks {needle:?}",
            error.message
        );
    }
}

#[test]
fn paths_are_checked_like_any_path_argument_without_touching_the_vault() {
    let fx = fixture();
    for (path, code) in [
        ("../outside.md", ErrorCode::PathInvalid),
        ("/etc/passwd", ErrorCode::PathInvalid),
        ("a//b.md", ErrorCode::PathInvalid),
        (".obsidian/app.json", ErrorCode::AclDenied),
        ("Notes/.git/config", ErrorCode::AclDenied),
    ] {
        fx.err(
            "generate_uri",
            json!({"action": "open", "path": path}),
            code,
        );
    }
    let before = std::fs::read_dir(fx.vault_dir("main"))
        .expect("vault")
        .count();
    uri(
        &fx,
        json!({"action": "new", "path": "Made/up.md", "content": "x"}),
    );
    uri(
        &fx,
        json!({"action": "write", "path": "Other.md", "content": "x", "mode": "overwrite"}),
    );
    assert!(!fx.exists("main", "Made"));
    assert!(!fx.exists("main", "Other.md"));
    let after = std::fs::read_dir(fx.vault_dir("main"))
        .expect("vault")
        .count();
    assert_eq!(before, after);
}

#[test]
fn a_caller_without_scopes_may_generate_uris() {
    let fx = fixture();
    let nobody = caller("nobody", &[], None);
    let out = fx
        .call(
            &nobody,
            "generate_uri",
            json!({"action": "search", "query": "x"}),
        )
        .result
        .expect("scope-free");
    assert_eq!(out["uri"], "obsidian://search?vault=main&query=x");
    let registry = fx.server.runtime().registry();
    let tool = registry.get("generate_uri").expect("registered");
    assert!(tool.annotations().read_only_hint);
    assert!(!tool.needs_confirmation());
}
