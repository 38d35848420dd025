//! A zero-config vault's cache folder at each start (`vault_cache::place`): an older in-vault
//! cache moved out with its data, or used in place while open elsewhere; a moved or renamed
//! vault finding its data again; a copied vault getting a cache of its own; and, through the
//! real binary, a session that leaves no database inside the vault.

mod binary;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, LoadedConfig, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::runtime::ManualClock;
use obsidian_tc::store::{IdempotencyPolicy, Store};
use obsidian_tc::vault_cache::{Record, VAULT_ID_FILE, place, read_id, read_record};
use serde_json::{Value, json};

use crate::support::cache_home::{cache_env, vault_cache_dir};
use crate::support::dispatch::START_MS;

/// A vault folder `name` inside a temp parent (so that it can be moved next to itself) and
/// a temp platform cache base.
struct Setup {
    parent: tempfile::TempDir,
    cache: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        Setup {
            parent: tempfile::tempdir().expect("parent"),
            cache: tempfile::tempdir().expect("cache home"),
        }
    }

    /// A new vault folder `name` with one note.
    fn vault(&self, name: &str) -> PathBuf {
        let vault = self.parent.path().join(name);
        std::fs::create_dir_all(&vault).expect("vault");
        std::fs::write(vault.join("a.md"), "# A\n").expect("note");
        vault
    }

    /// A new vault folder `name` served once, with the capture `content` queued.
    fn served(&self, name: &str, content: &str) -> PathBuf {
        let vault = self.vault(name);
        enqueue(&self.start(&vault, &[]), content);
        vault
    }

    /// The zero-config configuration of `vault`, with `env` added.
    fn config(&self, vault: &Path, env: &[(&str, &str)]) -> LoadedConfig {
        let mut vars = cache_env(self.cache.path());
        vars.extend(env.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())));
        load(&LoadInput {
            origin: ConfigOrigin::VaultFolder(vault.to_path_buf()),
            env: vars,
            overrides: Vec::new(),
        })
        .expect("zero-config loads")
    }

    /// A server on `vault` (zero-config, `env` added).
    fn start(&self, vault: &Path, env: &[(&str, &str)]) -> Dispatcher {
        Dispatcher::new(
            self.config(vault, env),
            Arc::new(ManualClock::new(START_MS)),
        )
        .expect("the server starts")
    }

    /// The platform cache folder of the vault at `vault`.
    fn dir_of(&self, vault: &Path) -> PathBuf {
        vault_cache_dir(self.cache.path(), vault)
    }
}

fn call(server: &Dispatcher, tool: &str, args: Value) -> Value {
    server
        .call(&Caller::stdio(), tool, args)
        .result
        .unwrap_or_else(|e| panic!("{tool} failed: {e}"))
}

/// Queues a capture: data no rescan of the vault can rebuild.
fn enqueue(server: &Dispatcher, content: &str) {
    call(server, "enqueue_capture", json!({ "content": content }));
}

/// The contents of the pending captures.
fn pending(server: &Dispatcher) -> Vec<String> {
    let page = call(
        server,
        "list_capture_queue",
        json!({"include_content": true}),
    );
    page["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|item| item["content"].as_str().expect("content").to_owned())
        .collect()
}

fn names(dir: &Path) -> Vec<String> {
    crate::support::file_names(dir)
}

#[test]
fn a_first_start_names_the_vault_and_records_it_in_its_cache_folder() {
    let setup = Setup::new();
    let vault = setup.served("Notes", "first\n");
    let id = read_id(&vault)
        .expect("reads")
        .expect("a vault-id was written");
    let dir = setup.dir_of(&vault);
    assert_eq!(
        read_record(&dir).expect("reads"),
        Some(Record {
            vault_id: id.clone(),
            path: vault.clone()
        })
    );
    assert!(dir.join("cache.db").is_file());
    assert_eq!(names(&vault.join(".obsidian-tc")), [VAULT_ID_FILE]);
    let again = setup.start(&vault, &[]);
    assert_eq!(pending(&again), ["first\n"]);
    assert_eq!(read_id(&vault).expect("reads"), Some(id), "written once");
}

#[test]
fn an_older_in_vault_cache_moves_out_once_with_its_data() {
    let setup = Setup::new();
    let vault = setup.vault("Notes");
    let old = vault.join(".obsidian-tc");
    let server = setup.start(&vault, &[("OBSIDIAN_TC_CACHE_IN_VAULT", "true")]);
    enqueue(&server, "kept across the move\n");
    drop(server);
    assert!(old.join("cache.db").is_file(), "the older layout");
    std::fs::create_dir_all(old.join("traces/main")).expect("traces");
    std::fs::write(old.join("traces/main/s.jsonl"), "{}\n").expect("trace");

    let mut config = setup.config(&vault, &[]);
    let notes = place(&mut config).expect("placed");
    let dir = setup.dir_of(&vault);
    assert_eq!(config.cache_dir(), dir);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].contains("moved the cache out of the vault")
            && notes[0].contains(&dir.display().to_string()),
        "{notes:?}"
    );
    assert_eq!(
        names(&old),
        [VAULT_ID_FILE],
        "nothing but the id left in the vault"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("traces/main/s.jsonl")).expect("trace moved"),
        "{}\n"
    );
    let server = Dispatcher::new(config, Arc::new(ManualClock::new(START_MS))).expect("starts");
    assert_eq!(pending(&server), ["kept across the move\n"]);
    drop(server);

    // once: the next start has nothing to move
    let mut config = setup.config(&vault, &[]);
    assert_eq!(place(&mut config).expect("placed"), Vec::<String>::new());
}

#[test]
fn an_older_cache_open_in_another_process_serves_in_place() {
    let setup = Setup::new();
    let vault = setup.vault("Notes");
    let old = vault.join(".obsidian-tc");
    drop(setup.start(&vault, &[("OBSIDIAN_TC_CACHE_IN_VAULT", "true")]));
    let holder = Store::open(&old.join("cache.db"), IdempotencyPolicy::default()).expect("open");

    let mut config = setup.config(&vault, &[]);
    let notes = place(&mut config).expect("placed");
    assert_eq!(config.cache_dir(), old, "used where it is");
    assert!(notes[0].contains("open in another process"), "{notes:?}");
    assert!(old.join("cache.db").is_file(), "not moved");
    assert!(!setup.dir_of(&vault).join("cache.db").exists());

    drop(holder);
    let mut config = setup.config(&vault, &[]);
    place(&mut config).expect("placed");
    assert_eq!(config.cache_dir(), setup.dir_of(&vault), "moved once free");
    assert!(!old.join("cache.db").exists());
}

#[test]
fn servers_starting_at_once_all_take_the_moved_cache() {
    // Two clients launched together each start a server: their placements take turns, so no
    // start sees the other's probe as "in use" and keeps serving from a cache that then moves.
    let setup = Setup::new();
    let vault = setup.vault("Notes");
    let server = setup.start(&vault, &[("OBSIDIAN_TC_CACHE_IN_VAULT", "true")]);
    enqueue(&server, "once\n");
    drop(server);
    let starts = 8;
    let barrier = std::sync::Barrier::new(starts);
    let dirs: Vec<PathBuf> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..starts)
            .map(|_| {
                let mut config = setup.config(&vault, &[]);
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    place(&mut config).expect("placed");
                    config.cache_dir().to_path_buf()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a start"))
            .collect()
    });
    let dir = setup.dir_of(&vault);
    assert!(dirs.iter().all(|d| *d == dir), "{dirs:?}");
    assert_eq!(names(&vault.join(".obsidian-tc")), [VAULT_ID_FILE]);
    let mut config = setup.config(&vault, &[]);
    place(&mut config).expect("placed");
    let server = Dispatcher::new(config, Arc::new(ManualClock::new(START_MS))).expect("starts");
    assert_eq!(pending(&server), ["once\n"]);
}

#[test]
fn a_moved_vault_finds_its_data_again() {
    let setup = Setup::new();
    let vault = setup.served("Notes", "not a cache\n");
    let id = read_id(&vault).expect("reads");
    let old_dir = setup.dir_of(&vault);

    let moved = setup.parent.path().join("Renamed");
    std::fs::rename(&vault, &moved).expect("mv the vault");
    let mut config = setup.config(&moved, &[]);
    let notes = place(&mut config).expect("placed");
    let new_dir = setup.dir_of(&moved);
    assert_eq!(config.cache_dir(), new_dir);
    assert!(
        notes[0].contains("moved from") && notes[0].contains(&new_dir.display().to_string()),
        "{notes:?}"
    );
    assert!(!old_dir.exists(), "the folder was adopted, not copied");
    assert_eq!(read_id(&moved).expect("reads"), id, "same vault");
    assert_eq!(
        read_record(&new_dir).expect("reads").expect("record").path,
        moved
    );
    let server = Dispatcher::new(config, Arc::new(ManualClock::new(START_MS))).expect("starts");
    assert_eq!(pending(&server), ["not a cache\n"]);
}

#[test]
fn a_copied_vault_gets_a_cache_and_an_id_of_its_own() {
    let setup = Setup::new();
    let vault = setup.served("Notes", "the original's\n");
    let id = read_id(&vault).expect("reads").expect("id");

    let copy = setup.vault("Copy");
    std::fs::create_dir_all(copy.join(".obsidian-tc")).expect("folder");
    std::fs::copy(
        vault.join(".obsidian-tc").join(VAULT_ID_FILE),
        copy.join(".obsidian-tc").join(VAULT_ID_FILE),
    )
    .expect("copy the id with the vault");
    let server = setup.start(&copy, &[]);
    assert_eq!(pending(&server), Vec::<String>::new(), "not the original's");
    enqueue(&server, "the copy's\n");
    drop(server);
    let copy_id = read_id(&copy).expect("reads").expect("id");
    assert_ne!(copy_id, id, "the copy was given a new id");
    assert_ne!(setup.dir_of(&copy), setup.dir_of(&vault));

    let server = setup.start(&vault, &[]);
    assert_eq!(pending(&server), ["the original's\n"]);
    assert_eq!(
        read_id(&vault).expect("reads"),
        Some(id),
        "the original kept its id"
    );
}

#[test]
fn a_vault_moved_onto_another_vaults_old_path_leaves_that_ones_data_for_it() {
    let setup = Setup::new();
    let first = setup.served("Notes", "first vault\n");
    let other = setup.served("Other", "second vault\n");
    // the first vault moves away and the second takes its place; the first starts later
    let away = setup.parent.path().join("Away");
    std::fs::rename(&first, &away).expect("mv");
    std::fs::rename(&other, &first).expect("mv");
    let server = setup.start(&first, &[]);
    assert_eq!(
        pending(&server),
        ["second vault\n"],
        "its own data, found by id"
    );
    drop(server);
    let server = setup.start(&away, &[]);
    assert_eq!(pending(&server), ["first vault\n"], "found by its id");
}

#[test]
fn a_vault_whose_id_file_was_deleted_keeps_the_cache_of_its_path() {
    let setup = Setup::new();
    let vault = setup.served("Notes", "still mine\n");
    let id = read_id(&vault).expect("reads");
    std::fs::remove_dir_all(vault.join(".obsidian-tc")).expect("rm .obsidian-tc");
    let server = setup.start(&vault, &[]);
    assert_eq!(pending(&server), ["still mine\n"]);
    assert_eq!(read_id(&vault).expect("reads"), id, "the id written back");
}

#[test]
fn a_vault_id_that_does_not_read_is_a_clear_error() {
    let setup = Setup::new();
    let vault = setup.vault("Notes");
    std::fs::create_dir_all(vault.join(".obsidian-tc")).expect("folder");
    std::fs::write(vault.join(".obsidian-tc").join(VAULT_ID_FILE), "not an id").expect("id");
    let error = place(&mut setup.config(&vault, &[])).expect_err("refused");
    assert!(error.to_string().contains("is not a vault id"), "{error}");
    assert!(!setup.dir_of(&vault).exists(), "nothing made");
}
