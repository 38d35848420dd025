//! The typed answers of the Remotely Save, Datacore and Metadata Menu bridge tools against a
//! fake TC Bridge: the answer passes through as its type, and the caller's folder ACL applies
//! to every note path in it (Datacore rows by their note and the notes their fields link to, a
//! row of no note only for a caller who reads every note; Metadata Menu's resolved note). The
//! read-only kill switch stops the Remotely Save trigger before TC Bridge hears of it.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::companion::{FakeCompanion, LAST_SYNC, METADATA_STATUS, Mode};
use crate::support::dispatch::{Fixture, caller};

const QUERY: &str = "/obsidian-tc/v1/datacore/query";
const FIELDS: &str = "/obsidian-tc/v1/metadata-menu/fields";
const TRIGGER: &str = "/obsidian-tc/v1/remotely-save/trigger";

/// A fixture whose vault `main` uses `companion`, with `acl` (JSON null: none).
fn fixture(companion: &FakeCompanion, acl: Value) -> Fixture {
    let mut vault = json!({"id": "main", "path": "main", "companion": companion.config()});
    if !acl.is_null() {
        vault["acl"] = acl;
    }
    let fx = Fixture::new(json!({"vaults": [vault]}));
    fx.write("main", "Projects/a.md", "# A\n");
    fx
}

/// The paths of `query_datacore`'s rows.
fn paths(answer: &Value) -> Vec<Value> {
    answer["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["path"].clone())
        .collect()
}

#[test]
fn query_datacore_without_an_acl_passes_every_row_and_the_limit_through() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(&companion, Value::Null);
    let answer = fx.ok(
        "query_datacore",
        json!({"query": "@page and #plan", "limit": 2}),
    );
    assert_eq!(
        paths(&answer),
        [json!("Projects/Moon.md"), json!("Private/diary.md")]
    );
    assert_eq!(answer["total"], 5);
    assert_eq!(answer["query"], "@page and #plan");
    assert_eq!(
        answer["items"][0],
        json!({"path": "Projects/Moon.md", "name": "Moon", "tags": ["#plan"],
               "types": ["file", "markdown", "page"],
               "fields": {"status": "active",
                          "related": [{"type": "link", "path": "Projects/Mars.md", "embed": false}]}})
    );
    assert_eq!(
        companion.requests_to(QUERY),
        [json!({"query": "@page and #plan", "limit": 2})]
    );
    let all = fx.ok("query_datacore", json!({"query": "@page and #plan"}));
    assert_eq!(
        paths(&all),
        [
            json!("Projects/Moon.md"),
            json!("Private/diary.md"),
            json!("Projects/Mars.md"),
            Value::Null,
            json!("Projects/Venus.md")
        ],
        "a row of no note shows to a caller who reads every note"
    );
}

#[test]
fn query_datacore_keeps_only_rows_the_caller_may_read() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(&companion, json!({"readPaths": ["Projects/**"]}));
    let answer = fx.ok(
        "query_datacore",
        json!({"query": "@page and #plan", "limit": 1}),
    );
    assert_eq!(paths(&answer), [json!("Projects/Moon.md")]);
    assert_eq!(
        answer["total"], 2,
        "Moon and Venus: not the note in Private/, not Mars (its fields link into Private/), not the row of no note"
    );
    assert!(!answer.to_string().contains("Private"), "{answer}");
    // TC Bridge is asked for every row up to 500, so hidden rows do not shorten the page
    assert_eq!(
        companion.requests_to(QUERY),
        [json!({"query": "@page and #plan", "limit": 500})]
    );
    let all = fx.ok("query_datacore", json!({"query": "@page and #plan"}));
    assert_eq!(
        paths(&all),
        [json!("Projects/Moon.md"), json!("Projects/Venus.md")]
    );
}

#[test]
fn a_rule_scope_the_caller_lacks_restricts_its_reads_and_hides_rows_of_no_note() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(
        &companion,
        json!({"rules": [{"glob": "Private/**", "scopes": ["read:secret"]}]}),
    );
    let args = json!({"query": "@page and #plan"});
    let plain = caller("plain", &["read:datacore"], None);
    let answer = fx
        .call(&plain, "query_datacore", args.clone())
        .result
        .expect("query");
    assert_eq!(
        paths(&answer),
        [json!("Projects/Moon.md"), json!("Projects/Venus.md")]
    );
    let trusted = caller("trusted", &["read:datacore", "read:secret"], None);
    let answer = fx
        .call(&trusted, "query_datacore", args)
        .result
        .expect("query");
    assert_eq!(answer["total"], 5, "{answer}");
    assert!(paths(&answer).contains(&Value::Null));
}

#[test]
fn query_datacore_refuses_a_limit_over_500_before_calling_obsidian() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(&companion, Value::Null);
    fx.err(
        "query_datacore",
        json!({"query": "@page", "limit": 501}),
        ErrorCode::ValidationError,
    );
    assert!(companion.requests_to(QUERY).is_empty());
}

#[test]
fn read_metadata_fields_checks_the_note_asked_for_and_the_note_tc_bridge_resolved() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(
        &companion,
        json!({"readPaths": ["Projects/**", "!Projects/*.md", "Projects/a.md"]}),
    );
    assert_eq!(
        fx.ok("read_metadata_fields", json!({"path": "Projects/a.md"})),
        json!({"path": "Projects/a.md", "fields": {"status": *METADATA_STATUS}, "total": 1})
    );
    // `Projects/b` passes, the `Projects/b.md` TC Bridge resolves it to does not
    fx.err(
        "read_metadata_fields",
        json!({"path": "Projects/b"}),
        ErrorCode::AclDenied,
    );
    let sent = companion.requests_to(FIELDS).len();
    fx.err(
        "read_metadata_fields",
        json!({"path": "Private/diary.md"}),
        ErrorCode::AclDenied,
    );
    assert_eq!(
        companion.requests_to(FIELDS).len(),
        sent,
        "a denied path never reaches TC Bridge"
    );
}

#[test]
fn remotely_save_status_and_trigger_answer_as_typed_and_the_kill_switch_stops_the_trigger() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(&companion, Value::Null);
    assert_eq!(
        fx.ok("remotely_save_status", json!({})),
        json!({"sync_status": "idle", "last_success_sync": LAST_SYNC})
    );
    assert_eq!(
        fx.ok("remotely_save_trigger", json!({})),
        json!({"triggered": true, "fired_at": LAST_SYNC + 1})
    );
    let reader = caller("reader", &["read:remotely-save"], None);
    fx.err_as(
        &reader,
        "remotely_save_trigger",
        json!({}),
        ErrorCode::Forbidden,
    );
    assert_eq!(companion.requests_to(TRIGGER).len(), 1);

    let frozen = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(&frozen, json!({"readOnly": true}));
    fx.ok("remotely_save_status", json!({}));
    fx.err_as(
        &Caller::stdio(),
        "remotely_save_trigger",
        json!({}),
        ErrorCode::ReadOnlyMode,
    );
    assert!(frozen.requests_to(TRIGGER).is_empty());
}
