//! The event log: append, recent (newest first, per vault), limits.

use obsidian_tc::store::{Event, EventFilter, Outcome, StoreError};
use serde_json::json;

use crate::support;

fn event(vault: &str, ts: i64, outcome: Outcome) -> Event {
    Event {
        vault_id: vault.to_owned(),
        ts,
        tool: "write_note".to_owned(),
        caller: "stdio".to_owned(),
        outcome,
        duration_ms: 12,
        args_hash: "0123456789abcdef0123456789abcdef".to_owned(),
        details: json!({"result_size": 10}),
        paths: Vec::new(),
    }
}

#[test]
fn appended_events_come_back_newest_first_and_intact() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let log = store.events();
    let ok = event("main", 100, Outcome::Ok);
    let failed = event(
        "main",
        101,
        Outcome::Error {
            code: "acl_denied".into(),
        },
    );
    let first = log.append(&ok).unwrap();
    let second = log.append(&failed).unwrap();
    assert!(second > first);
    let recent = log.recent(Some("main"), 10).unwrap();
    assert_eq!(recent.len(), 2);
    assert_eq!((recent[0].id, &recent[0].event), (second, &failed));
    assert_eq!((recent[1].id, &recent[1].event), (first, &ok));
    assert_eq!(log.recent(None, 1).unwrap()[0].id, second);
}

#[test]
fn recent_is_scoped_by_vault() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let log = store.events();
    log.append(&event("a", 1, Outcome::Ok)).unwrap();
    log.append(&event("b", 2, Outcome::Ok)).unwrap();
    let b = log.recent(Some("b"), 10).unwrap();
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].event.vault_id, "b");
    assert_eq!(log.recent(None, 10).unwrap().len(), 2);
    assert!(log.recent(Some("c"), 10).unwrap().is_empty());
}

#[test]
fn recent_refuses_a_limit_out_of_range() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    assert!(matches!(
        store.events().recent(None, 0),
        Err(StoreError::InvalidLimit { .. })
    ));
}

#[test]
fn paths_come_back_sorted_and_the_filter_narrows_by_each_field() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let log = store.events();
    let mut moved = event("main", 100, Outcome::Ok);
    moved.tool = "move_note".into();
    moved.paths = vec![
        "Projects/b.md".into(),
        "Inbox/a.md".into(),
        "Projects/b.md".into(),
    ];
    let moved_id = log.append(&moved).unwrap();
    let mut denied = event(
        "main",
        200,
        Outcome::Error {
            code: "acl_denied".into(),
        },
    );
    denied.caller = "agent".into();
    denied.paths = vec!["Private/x.md".into()];
    let denied_id = log.append(&denied).unwrap();
    log.append(&event("other", 300, Outcome::Ok)).unwrap();

    let ids = |filter: EventFilter| -> Vec<i64> {
        log.query(&filter, 10)
            .unwrap()
            .into_iter()
            .map(|logged| logged.id)
            .collect()
    };
    let first = log.query(&EventFilter::default(), 10).unwrap();
    assert_eq!(first.len(), 3);
    assert_eq!(first[2].event.paths, ["Inbox/a.md", "Projects/b.md"]);
    let main = || EventFilter {
        vault: Some("main".into()),
        ..EventFilter::default()
    };
    assert_eq!(ids(main()), [denied_id, moved_id]);
    assert_eq!(
        ids(EventFilter {
            since: Some(150),
            ..main()
        }),
        [denied_id]
    );
    assert_eq!(
        ids(EventFilter {
            until: Some(150),
            ..main()
        }),
        [moved_id]
    );
    assert_eq!(
        ids(EventFilter {
            tool: Some("move_note".into()),
            ..main()
        }),
        [moved_id]
    );
    assert_eq!(
        ids(EventFilter {
            caller: Some("agent".into()),
            ..main()
        }),
        [denied_id]
    );
    assert_eq!(
        ids(EventFilter {
            outcome: Some("error".into()),
            ..main()
        }),
        [denied_id]
    );
    assert_eq!(
        ids(EventFilter {
            outcome: Some("acl_denied".into()),
            ..main()
        }),
        [denied_id]
    );
    assert_eq!(
        ids(EventFilter {
            outcome: Some("ok".into()),
            ..main()
        }),
        [moved_id]
    );
    assert_eq!(
        ids(EventFilter {
            path_prefix: Some("Projects/".into()),
            ..main()
        }),
        [moved_id]
    );
    assert_eq!(
        ids(EventFilter {
            path_prefix: Some("Priv".into()),
            ..main()
        }),
        [denied_id]
    );
    assert!(
        ids(EventFilter {
            path_prefix: Some("projects/".into()),
            ..main()
        })
        .is_empty()
    );
    assert_eq!(
        ids(EventFilter {
            before_id: Some(denied_id),
            ..main()
        }),
        [moved_id]
    );
}
