//! `obsidian-tc metrics <vault>` after a stdio session: the counters rebuilt from the cache's
//! event log equal the calls the session made, with the stored index's gauges, in text
//! promtool accepts; `--url` fetches a running server's `/metrics` and says what to do when
//! it cannot.

use serde_json::json;

use super::{CALLS, calls, family, promtool_check, sample, series};
use crate::support::cache_home::cache_of;
use crate::support::mcp::{arg, call, run, stdio_client, vault};

#[tokio::test(flavor = "multi_thread")]
async fn the_cache_report_counts_a_stdio_sessions_calls() {
    let vault = vault();
    let folder = arg(vault.path());
    let client = stdio_client(&[&folder]).await;
    for (tool, args) in [
        ("read_note", json!({"path": "hello.md"})),
        ("read_note", json!({"path": "hello.md"})),
        ("read_note", json!({"path": "missing.md"})),
        ("no_such_tool", json!({})),
        ("server_health", json!({})),
    ] {
        call(&client, tool, args).await;
    }
    client.cancel().await.expect("stop the stdio server");

    let out = run(&["metrics", &folder]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let expected = [
        (calls("main", "read_note", "read", "ok"), 2.0),
        (calls("main", "read_note", "read", "not_found"), 1.0),
        (calls("", "(unregistered)", "none", "not_found"), 1.0),
        (calls("main", "server_health", "read", "ok"), 1.0),
    ]
    .into_iter()
    .collect();
    assert_eq!(family(&text, CALLS), expected, "{text}");
    assert_eq!(
        sample(
            &text,
            "obsidian_tc_tool_call_duration_seconds_count{class=\"read\"}"
        ),
        Some(4.0)
    );
    let notes = series("obsidian_tc_index_notes", &[("vault", "main")]);
    assert_eq!(sample(&text, &notes), Some(2.0), "{text}");
    // what only a running process knows is not made up
    for live in [
        "process_resident_memory_bytes",
        "obsidian_tc_http_sessions_open",
    ] {
        assert!(!text.contains(live), "{live} in {text}");
    }
    promtool_check(&text);
}

#[test]
fn a_vault_never_served_has_no_cache_to_report() {
    let vault = vault();
    let out = run(&["metrics", &arg(vault.path())]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("no cache database at"), "{said}");
    assert!(
        !vault.path().join(".obsidian-tc").exists(),
        "reporting wrote into the vault"
    );
    assert!(
        !cache_of(vault.path()).exists(),
        "reporting created a cache"
    );
}

#[test]
fn the_url_form_says_what_is_wrong() {
    let out = run(&["metrics", "--url", "ftp://127.0.0.1:1"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["metrics", "--url", "http://127.0.0.1:1"]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("cannot reach http://127.0.0.1:1/metrics"),
        "{said}"
    );
    let out = run(&["metrics", "--token", "x"]);
    assert_eq!(out.status.code(), Some(2), "--token needs --url");
}
