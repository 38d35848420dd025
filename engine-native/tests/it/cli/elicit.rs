//! `obsidian-tc elicit list --json` through the built binary: a machine-readable list of the
//! calls waiting for approval, with RFC 3339 times; the human lines stay the default.

use obsidian_tc::store::{CACHE_DB_FILE, ElicitRequest, IdempotencyPolicy, Store};
use serde_json::{Value, json};

use crate::support::mcp::{arg, run, run_call, stdout_json, vault};

/// 2100-01-01T00:00:00Z: far enough ahead that a request recorded then is still live.
const YEAR_2100: i64 = 4_102_444_800;

/// 2096-02-29T12:34:56Z, a leap day.
const LEAP_DAY_2096: i64 = 3_981_357_296;

fn list_json(vault: &std::path::Path) -> Vec<Value> {
    let out = run(&["elicit", "list", "--json", &arg(vault)]);
    assert_eq!(out.status.code(), Some(0));
    match stdout_json(&out) {
        Value::Array(items) => items,
        other => panic!("not an array: {other}"),
    }
}

#[test]
fn list_json_is_an_empty_array_when_nothing_waits() {
    let vault = vault();
    assert_eq!(list_json(vault.path()), Vec::<Value>::new());
}

#[test]
fn list_json_describes_a_gated_call_and_its_approval() {
    let vault = vault();
    let gated = run_call(vault.path(), "delete_note", r#"{"path": "gone.md"}"#);
    assert_eq!(gated.status.code(), Some(1));
    let hash = stdout_json(&gated)["details"]["args_hash"]
        .as_str()
        .expect("args hash")
        .to_owned();

    let items = list_json(vault.path());
    assert_eq!(items.len(), 1, "{items:?}");
    let item = &items[0];
    assert_eq!(item["state"], "pending");
    assert_eq!(item["args_hash"], hash.as_str());
    assert_eq!(item["tool"], "delete_note");
    assert_eq!(item["vault"], "main");
    assert_eq!(item["caller"], "cli");
    assert!(item["proposed_change"].is_object());
    assert!(item["proposed_change"].to_string().contains("gone.md"));
    let ttl = item["expires_in_seconds"].as_i64().expect("seconds");
    assert!(ttl > 0 && ttl <= 300, "{ttl}");
    for field in ["created_at", "expires_at"] {
        let text = item[field].as_str().expect("timestamp");
        assert!(is_rfc3339_utc(text), "{field}: {text}");
    }

    let approved = run(&["elicit", "approve", &hash, &arg(vault.path())]);
    assert_eq!(approved.status.code(), Some(0));
    let items = list_json(vault.path());
    assert_eq!(items[0]["state"], "approved");

    let human = run(&["elicit", "list", &arg(vault.path())]);
    let text = String::from_utf8_lossy(&human.stdout);
    assert!(text.starts_with("approved "), "{text}");
    assert!(serde_json::from_str::<Value>(&text).is_err());
}

#[test]
fn list_json_times_are_the_recorded_ones_in_utc() {
    let vault = vault();
    // The first command creates the cache database; then two requests are recorded at known
    // times (one on a leap day) straight into it.
    assert_eq!(list_json(vault.path()), Vec::<Value>::new());
    let db = crate::support::cache_home::cache_of(vault.path()).join(CACHE_DB_FILE);
    let store = Store::open(&db, IdempotencyPolicy::default()).expect("store");
    for (hash, at) in [("a".repeat(64), YEAR_2100), ("b".repeat(64), LEAP_DAY_2096)] {
        let request = ElicitRequest {
            vault_id: "main".to_owned(),
            tool_name: "delete_note".to_owned(),
            args_hash: hash,
            caller: "cli".to_owned(),
            proposed_change: json!({"path": "gone.md"}),
        };
        store.elicit().request(&request, 90, at).expect("record");
    }
    drop(store);
    let items = list_json(vault.path());
    let times: Vec<(&str, &str)> = items
        .iter()
        .map(|item| {
            (
                item["created_at"].as_str().expect("created"),
                item["expires_at"].as_str().expect("expires"),
            )
        })
        .collect();
    assert_eq!(
        times,
        [
            ("2096-02-29T12:34:56Z", "2096-02-29T12:36:26Z"),
            ("2100-01-01T00:00:00Z", "2100-01-01T00:01:30Z"),
        ]
    );
}

/// `YYYY-MM-DDTHH:MM:SSZ`.
fn is_rfc3339_utc(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 20
        && bytes.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            10 => *b == b'T',
            13 | 16 => *b == b':',
            19 => *b == b'Z',
            _ => b.is_ascii_digit(),
        })
}
