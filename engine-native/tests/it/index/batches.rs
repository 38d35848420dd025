//! The full scan stores notes in batches (one transaction each) while a second thread reads
//! them: through `Indexes::scan` on a real vault folder and a real `cache.db`, a vault larger
//! than one batch is stored completely, notes that fail in the middle of a batch are recorded
//! without losing the batch's other notes, progress is reported once per note in order, and a
//! rescan across batches updates, keeps and prunes exactly the right notes.

use std::path::Path;

use obsidian_tc::index::Indexes;
use obsidian_tc::store::{IdempotencyPolicy, Store};
use obsidian_tc::vault::{Vault, VaultOptions};

const VAULT: &str = "v";
/// More than two batches of notes.
const NOTES: usize = 600;
/// Notes that cannot be decoded, spread over the batches (first, middle, last positions).
const BROKEN: [usize; 4] = [0, 137, 300, 599];

struct Setup {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    store: Store,
    vault: Vault,
    indexes: Indexes,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("vault");
    std::fs::create_dir_all(root.join("deep/er")).unwrap();
    let store = Store::open(&dir.path().join("cache.db"), IdempotencyPolicy::default()).unwrap();
    let vault = Vault::open(&root, VaultOptions::default()).unwrap();
    Setup {
        _dir: dir,
        root,
        store,
        vault,
        indexes: Indexes::default(),
    }
}

fn note_path(i: usize) -> String {
    match i % 3 {
        0 => format!("n{i:04}.md"),
        1 => format!("deep/n{i:04}.md"),
        _ => format!("deep/er/n{i:04}.md"),
    }
}

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    std::fs::write(root.join(rel), bytes).unwrap();
}

/// Writes every note; the broken ones are not UTF-8.
fn write_vault(root: &Path) {
    for i in 0..NOTES {
        let text = format!("# Note {i}\n\nuniqueword{i} and shared text\n");
        let bytes: Vec<u8> = if BROKEN.contains(&i) {
            vec![0xff, 0xfe, 0x00, 0x41]
        } else {
            text.into_bytes()
        };
        write(root, &note_path(i), &bytes);
    }
}

/// The notes the lexical view ranks first for `query`.
fn top_note(s: &Setup, query: &str) -> Option<String> {
    let index = s.indexes.vault(&s.store, VAULT).unwrap();
    let view = index.view.read().unwrap();
    let hit = view
        .search(&view.visible("all", &|_| true), query, 1)
        .into_iter()
        .next()?;
    view.place(hit.chunk_id).map(|place| place.path.clone())
}

fn scan(s: &Setup) -> (obsidian_tc::index::ScanReport, Vec<(usize, usize)>) {
    let mut calls = Vec::new();
    let report = s
        .indexes
        .scan(
            &s.store,
            VAULT,
            &s.vault,
            1_700_000_000,
            &mut |done, total| calls.push((done, total)),
            &|_| true,
        )
        .unwrap();
    (report, calls)
}

#[test]
fn notes_failing_inside_a_batch_are_recorded_and_the_rest_of_the_batch_is_stored() {
    let s = setup();
    write_vault(&s.root);
    let (report, calls) = scan(&s);
    assert_eq!(report.scanned, NOTES);
    assert_eq!(report.added, NOTES - BROKEN.len());
    assert_eq!(report.failed, BROKEN.len());
    // Progress once per note, in order, with the total.
    let want: Vec<(usize, usize)> = (1..=NOTES).map(|done| (done, NOTES)).collect();
    assert_eq!(calls, want);
    // Every readable note is searchable, including the neighbours of the broken ones.
    for i in (0..NOTES).filter(|i| !BROKEN.contains(i)) {
        assert_eq!(
            top_note(&s, &format!("uniqueword{i}")),
            Some(note_path(i)),
            "note {i}"
        );
    }
    let failures = s.store.note_index().failures(VAULT).unwrap();
    let mut failed: Vec<String> = failures.iter().map(|f| f.path.clone()).collect();
    failed.sort();
    let mut want: Vec<String> = BROKEN.iter().map(|&i| note_path(i)).collect();
    want.sort();
    assert_eq!(failed, want);
    assert!(
        failures
            .iter()
            .all(|f| f.stage == "read" && f.attempts == 1)
    );
    // The index survives a restart: a fresh `Indexes` reads the same rows back.
    let reopened = Indexes::default();
    let index = reopened.vault(&s.store, VAULT).unwrap();
    assert_eq!(
        index.view.read().unwrap().len(),
        s.indexes
            .vault(&s.store, VAULT)
            .unwrap()
            .view
            .read()
            .unwrap()
            .len()
    );
}

#[test]
fn a_rescan_across_batches_updates_keeps_retries_and_prunes_exactly() {
    let s = setup();
    write_vault(&s.root);
    scan(&s);
    // Change a few notes in different batches, delete some, fix one broken note.
    let changed = [5usize, 270, 580];
    let deleted = [10usize, 290, 590];
    for &i in &changed {
        write(
            &s.root,
            &note_path(i),
            format!("# Note {i}\n\nrewritten{i} text\n").as_bytes(),
        );
    }
    for &i in &deleted {
        std::fs::remove_file(s.root.join(note_path(i))).unwrap();
    }
    write(&s.root, &note_path(137), b"fixed note about herons\n");
    let (report, calls) = scan(&s);
    let remaining = NOTES - deleted.len();
    assert_eq!(report.scanned, remaining);
    assert_eq!(report.removed, deleted.len());
    assert_eq!(report.updated, changed.len());
    // 137 was never indexed (it failed), so fixing it adds it.
    assert_eq!(report.added, 1);
    assert_eq!(report.failed, BROKEN.len() - 1);
    assert_eq!(
        report.unchanged,
        remaining - changed.len() - 1 - (BROKEN.len() - 1)
    );
    assert_eq!(calls.last(), Some(&(remaining, remaining)));
    for &i in &changed {
        assert_eq!(top_note(&s, &format!("rewritten{i}")), Some(note_path(i)));
        assert_eq!(top_note(&s, &format!("uniqueword{i}")), None, "stale {i}");
    }
    for &i in &deleted {
        assert_eq!(top_note(&s, &format!("uniqueword{i}")), None, "deleted {i}");
    }
    assert_eq!(top_note(&s, "herons"), Some(note_path(137)));
    let failures = s.store.note_index().failures(VAULT).unwrap();
    assert_eq!(failures.len(), BROKEN.len() - 1);
    assert!(failures.iter().all(|f| f.attempts == 2), "{failures:?}");
}

/// A vault to be scanned at start is reported scanning from then on, also while nothing has
/// scanned it yet (the serving process may load its model first), whether its index opens
/// before or after; the start-up scan's end clears that, and a scan still reports itself.
#[test]
fn a_vault_awaiting_its_start_up_scan_is_reported_scanning_until_it_ends() {
    let s = setup();
    write_vault(&s.root);
    let scanning = || s.indexes.vault(&s.store, VAULT).unwrap().status().scanning;
    assert!(!scanning(), "no scan, none to come");
    let other = Indexes::default();
    other.start_up_scans(&[VAULT.to_owned()]);
    let opened_after = other.vault(&s.store, VAULT).unwrap();
    assert!(opened_after.status().scanning, "opened after the mark");
    assert_eq!(opened_after.status().chunks, 0);
    other.start_up_scan_ended(VAULT);
    assert!(!opened_after.status().scanning);

    s.indexes.start_up_scans(&[VAULT.to_owned()]);
    assert!(scanning(), "opened before the mark");
    let (report, _) = scan(&s);
    assert_eq!(report.added, NOTES - BROKEN.len());
    assert!(
        scanning(),
        "a scan by another caller does not end the start-up scan"
    );
    s.indexes.start_up_scan_ended(VAULT);
    assert!(!scanning());
}
