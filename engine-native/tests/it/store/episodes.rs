//! The work memory's episodes in the store: a caller's reads never hold another's rows, the
//! chain links a caller's episodes, the evaluator's rules, verdicts, forgetting and its
//! hash-chained log (which a changed row fails), the sweep's window and cap, and that they
//! survive a vault reset and a reopen.

use obsidian_tc::store::{
    Eligible, EpisodeQuery, EpisodeRow, GroupBy, NewEpisode, Retention, Store, TextMatch,
};

use crate::support;

const T0: i64 = 1_700_000_000;
const DAY: i64 = 86_400;

/// An ok (or failed, with `error`) call of `tool` by `caller` in vault `main` at `ts`.
fn episode<'a>(caller: &'a str, tool: &'a str, error: Option<&'a str>, ts: i64) -> NewEpisode<'a> {
    NewEpisode {
        vault_id: "main",
        ts,
        session_id: None,
        caller,
        tool,
        error_code: error,
        duration_ms: 3,
        result_size: 10,
        args_hash: "hash-1",
        args_json: None,
        paths: &[],
        scan_risk: None,
        tags: "",
        trust: 1.0,
        summary: "a receipt",
    }
}

/// Every episode of `caller` (`None`: every caller) in `main`, any eligibility.
fn all(store: &Store, caller: Option<&str>) -> Vec<EpisodeRow> {
    store
        .episodes()
        .query(&query(caller, Eligible::Any))
        .expect("query")
}

fn query(caller: Option<&str>, eligible: Eligible) -> EpisodeQuery<'_> {
    EpisodeQuery {
        eligible,
        ..EpisodeQuery::newest("main", caller, 0, 500)
    }
}

const SEARCHABLE: Eligible = Eligible::Searchable {
    include_pending: false,
    min_trust: 0.3,
};

fn ids(rows: &[EpisodeRow]) -> Vec<&str> {
    rows.iter().map(|row| row.id.as_str()).collect()
}

#[test]
fn a_read_holds_only_its_callers_episodes_and_each_links_to_the_callers_previous() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let episodes = store.episodes();
    let a1 = episodes
        .record(&episode("alice", "read_note", None, T0))
        .unwrap();
    let b1 = episodes
        .record(&episode("bob", "read_note", None, T0 + 1))
        .unwrap();
    let a2 = episodes
        .record(&episode("alice", "write_note", None, T0 + 2))
        .unwrap();
    assert!(a1.starts_with("ep_") && a1.len() == 21, "{a1}");
    assert_eq!(ids(&all(&store, Some("alice"))), [a2.as_str(), a1.as_str()]);
    assert_eq!(ids(&all(&store, Some("bob"))), [b1.as_str()]);
    assert_eq!(all(&store, None).len(), 3);
    let rows = all(&store, Some("alice"));
    assert_eq!(rows[0].prev_id.as_deref(), Some(a1.as_str()));
    assert_eq!(rows[1].prev_id, None);
    assert!(episodes.get("main", Some("bob"), &a1, 0).unwrap().is_none());
    assert!(
        episodes
            .get("main", Some("alice"), &a1, 0)
            .unwrap()
            .is_some()
    );
    assert!(episodes.get("other", None, &a1, 0).unwrap().is_none());
}

#[test]
fn words_match_through_the_index_and_arguments_only_when_asked() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let mut with_args = episode("alice", "write_note", None, T0);
    with_args.args_json = Some(r#"{"path":"Projects/zebra.md"}"#);
    let id = store.episodes().record(&with_args).unwrap();
    store.episodes().evaluate().unwrap();
    let find = |words: &[&str], in_arguments: bool| {
        let query = EpisodeQuery {
            text: Some(TextMatch {
                words: words.iter().map(|w| (*w).to_owned()).collect(),
                in_arguments,
            }),
            ..query(Some("alice"), SEARCHABLE)
        };
        ids(&store.episodes().query(&query).unwrap())
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(find(&["write_note"], true), vec![id.clone()]);
    assert_eq!(find(&["zebra"], true), vec![id.clone()]);
    assert!(find(&["zebra"], false).is_empty());
    assert!(find(&["zebra", "giraffe"], true).is_empty());
    assert!(find(&["\"quoted"], true).is_empty());
}

#[test]
fn the_evaluator_promotes_holds_a_mixed_cluster_until_stamped_and_keeps_minus_one_out() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let episodes = store.episodes();
    let clean = episodes
        .record(&episode("alice", "read_note", None, T0))
        .unwrap();
    let mut risky = episode("alice", "write_note", None, T0 + 1);
    risky.scan_risk = Some("high");
    risky.args_hash = "hash-risky";
    let risky = episodes.record(&risky).unwrap();
    assert_eq!(episodes.evaluate().unwrap(), 1);
    let searchable = |store: &Store| {
        ids(&store
            .episodes()
            .query(&query(Some("alice"), SEARCHABLE))
            .unwrap())
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>()
    };
    assert_eq!(searchable(&store), vec![clean.clone()]);
    assert!(!searchable(&store).contains(&risky));
    // The same call fails in a session: the cluster (caller, tool, args hash) is mixed, and
    // the success already promoted goes back to pending with the failure.
    let mut failed = episode("alice", "read_note", Some("not_found"), T0 + 2);
    failed.session_id = Some("s1");
    let failed = episodes.record(&failed).unwrap();
    episodes.evaluate().unwrap();
    assert!(searchable(&store).is_empty());
    // A +1 verdict on the session releases its stamped episode.
    let stamped = episodes
        .stamp(("main", "alice", "s1"), 1, (T0 + 10, T0 + 10), &[])
        .unwrap();
    assert_eq!((stamped.stamped, stamped.demoted), (1, 0));
    episodes.evaluate().unwrap();
    assert_eq!(searchable(&store), vec![failed.clone()]);
    // A -1 on a new session's work demotes its eligible episodes and keeps them out.
    let mut later = episode("alice", "search_vault", None, T0 + 20);
    later.session_id = Some("s2");
    later.args_hash = "hash-2";
    let later = episodes.record(&later).unwrap();
    episodes.evaluate().unwrap();
    assert!(searchable(&store).contains(&later));
    let stamped = episodes
        .stamp(("main", "alice", "s2"), -1, (T0 + 30, T0 + 30), &[])
        .unwrap();
    assert_eq!((stamped.stamped, stamped.demoted), (1, 1));
    episodes.evaluate().unwrap();
    assert!(!searchable(&store).contains(&later));
    // Stamping again finds nothing unstamped.
    let again = episodes
        .stamp(("main", "alice", "s2"), 1, (T0 + 40, T0 + 40), &[])
        .unwrap();
    assert_eq!(again.stamped, 0);
}

#[test]
fn a_forgotten_episode_is_never_read_and_the_log_verifies_until_a_row_is_changed() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    let episodes = store.episodes();
    let mut first = episode("alice", "write_note", None, T0);
    let paths = ["Notes/a.md".to_owned()];
    first.paths = &paths;
    first.args_json = Some(r#"{"path":"Notes/a.md"}"#);
    let first = episodes.record(&first).unwrap();
    let second = episodes
        .record(&episode("alice", "read_note", None, T0 + 1))
        .unwrap();
    episodes.evaluate().unwrap();
    assert!(
        !episodes
            .forget("main", Some("bob"), &first, ("bob", T0 + 2))
            .unwrap()
    );
    assert!(
        episodes
            .forget("main", Some("alice"), &first, ("alice", T0 + 2))
            .unwrap()
    );
    assert!(
        !episodes
            .forget("main", Some("alice"), &first, ("alice", T0 + 3))
            .unwrap()
    );
    assert!(
        episodes
            .forget("main", None, &second, ("admin", T0 + 3))
            .unwrap()
    );
    assert!(all(&store, None).is_empty());
    assert!(episodes.get("main", None, &first, 0).unwrap().is_none());
    let text = EpisodeQuery {
        text: Some(TextMatch {
            words: vec!["write_note".into()],
            in_arguments: true,
        }),
        ..query(None, Eligible::Any)
    };
    assert!(episodes.query(&text).unwrap().is_empty());
    let counts = episodes
        .counts("main", GroupBy::Tool, (0, None, None))
        .unwrap();
    assert!(counts.is_empty(), "{counts:?}");
    assert!(episodes.forget_log_verified().unwrap());
    let raw = rusqlite::Connection::open(&path).unwrap();
    let (args, paths): (Option<String>, i64) = raw
        .query_row(
            "SELECT args_json, (SELECT COUNT(*) FROM episode_paths) FROM episodes WHERE id = ?1",
            [&first],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!((args, paths), (None, 0));
    raw.execute(
        "UPDATE forget_log SET forgotten_by = 'mallory' WHERE seq = 1",
        [],
    )
    .unwrap();
    assert!(!episodes.forget_log_verified().unwrap());
}

#[test]
fn the_sweep_removes_episodes_past_the_window_and_beyond_the_cap() {
    let (_dir, path) = support::store::db_path();
    let store = support::store::open(&path);
    for day in 0..5 {
        store
            .episodes()
            .record(&episode("alice", "read_note", None, T0 + day * DAY))
            .unwrap();
    }
    let retention = Retention {
        episode_seconds: 3 * DAY,
        max_episodes: 2,
        ..Retention::default()
    };
    // Now = day 5: days 0 and 1 are past the 3-day window; of days 2..4 the cap keeps 2.
    let counts = store.sweep(T0 + 5 * DAY, retention).unwrap();
    assert_eq!(counts.episodes, 3);
    let left: Vec<i64> = all(&store, None).iter().map(|row| row.ts).collect();
    assert_eq!(left, [T0 + 4 * DAY, T0 + 3 * DAY]);
    assert_eq!(store.sweep(T0 + 5 * DAY, retention).unwrap().episodes, 0);
}

#[test]
fn episodes_survive_a_vault_reset_and_a_reopen() {
    let (_dir, path) = support::store::db_path();
    let id = {
        let store = support::store::open(&path);
        let id = store
            .episodes()
            .record(&episode("alice", "read_note", None, T0))
            .unwrap();
        store.delete_vault_rows("main").unwrap();
        assert_eq!(ids(&all(&store, Some("alice"))), [id.as_str()]);
        id
    };
    let store = support::store::open(&path);
    assert_eq!(ids(&all(&store, Some("alice"))), [id.as_str()]);
    let next = store
        .episodes()
        .record(&episode("alice", "read_note", None, T0 + 1))
        .unwrap();
    let rows = all(&store, Some("alice"));
    assert_eq!(rows[0].id, next);
    assert_eq!(rows[0].prev_id.as_deref(), Some(id.as_str()));
}
