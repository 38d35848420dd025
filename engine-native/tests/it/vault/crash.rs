//! Crash safety of the atomic writer: a child process (this test binary re-invoked) rewrites
//! a multi-megabyte note in a loop while the parent kills it with SIGKILL at random moments.
//! After every kill the note holds exactly the old or the new content, listings show no temp
//! file, and the cleanup removes the temp files the kills left behind.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use obsidian_tc::vault::{Vault, VaultOptions, WriteOptions, is_temp_name};

use crate::support::test_name;

/// Set in the child: the vault folder to write into.
const CHILD_VAULT_ENV: &str = "OBSIDIAN_TC_CRASH_CHILD_VAULT";
/// Set in the child: the file it creates once it is about to start writing.
const CHILD_READY_ENV: &str = "OBSIDIAN_TC_CRASH_CHILD_READY";

const NOTE: &str = "big/note.md";
const KILLS: usize = 24;

/// Two contents of different lengths and bytes, so a torn or truncated file matches neither.
fn contents() -> [Vec<u8>; 2] {
    let line_a = b"- [ ] alpha task with a [[link]] and some words to fill the line\n";
    let line_b = b"## Bravo heading\nbravo body text, a different line length.\n";
    [
        line_a.repeat(6 * 1024 * 1024 / line_a.len()),
        line_b.repeat(5 * 1024 * 1024 / line_b.len()),
    ]
}

fn overwrite() -> WriteOptions {
    WriteOptions {
        overwrite: true,
        expected_sha256: None,
    }
}

/// The child's body: runs only when re-invoked by the parent, and never returns there.
#[test]
fn crash_child_writer() {
    let (Some(vault_dir), Some(ready)) = (
        std::env::var_os(CHILD_VAULT_ENV),
        std::env::var_os(CHILD_READY_ENV),
    ) else {
        return;
    };
    let vault = Vault::open(Path::new(&vault_dir), VaultOptions::default()).unwrap();
    let contents = contents();
    fs::write(ready, b"ready").unwrap();
    for round in 0usize.. {
        vault
            .write(NOTE, &contents[round % 2], &overwrite())
            .unwrap();
    }
}

/// A small xorshift generator; the seed is printed so a failing run can be replayed.
struct Random(u64);

impl Random {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % bound
    }
}

fn spawn_child(vault_dir: &Path, ready: &Path) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            &test_name(module_path!(), "crash_child_writer"),
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(CHILD_VAULT_ENV, vault_dir)
        .env(CHILD_READY_ENV, ready)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !path.exists() {
        assert!(Instant::now() < deadline, "the child never started");
        sleep(Duration::from_millis(1));
    }
}

fn temp_files_on_disk(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(is_temp_name)
        })
        .collect()
}

#[test]
fn sigkill_during_atomic_writes_never_tears_the_note() {
    let work = tempfile::tempdir().unwrap();
    let vault_dir = work.path().join("vault");
    fs::create_dir(&vault_dir).unwrap();
    let ready = work.path().join("ready");
    let vault = Vault::open(&vault_dir, VaultOptions::default()).unwrap();
    let contents = contents();
    vault.write(NOTE, &contents[0], &overwrite()).unwrap();

    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("crash test seed {seed}");
    let mut random = Random(seed);
    let (mut saw_new, mut kills_leaving_temp) = (0, 0);
    for kill in 0..KILLS {
        let _ = fs::remove_file(&ready);
        let mut child = spawn_child(&vault_dir, &ready);
        wait_for(&ready);
        sleep(Duration::from_micros(1_000 + random.below(150_000)));
        child.kill().unwrap();
        child.wait().unwrap();

        let note = fs::read(vault_dir.join(NOTE)).unwrap();
        let which = contents.iter().position(|content| *content == note);
        assert!(
            which.is_some(),
            "kill {kill}: torn note of {} bytes (seed {seed})",
            note.len()
        );
        saw_new += usize::from(which == Some(1));
        let listed = vault.list(None).unwrap();
        let listed: Vec<&str> = listed.iter().map(|entry| entry.path.as_str()).collect();
        assert_eq!(
            listed,
            vec!["big", NOTE],
            "kill {kill}: listing shows only the note"
        );
        if !temp_files_on_disk(&vault_dir.join("big")).is_empty() {
            kills_leaving_temp += 1;
        }
    }
    eprintln!(
        "{KILLS} kills: {saw_new} left the other content, {kills_leaving_temp} left temp files on disk"
    );
    assert!(
        kills_leaving_temp > 0,
        "no kill interrupted a write (seed {seed})"
    );

    let far_future = SystemTime::now() + Duration::from_secs(86_400);
    let removed = vault
        .remove_stale_temp_files(far_future, Duration::from_secs(60))
        .unwrap();
    assert!(!removed.is_empty());
    assert!(removed.iter().all(|path| path.starts_with("big/.otc-tmp-")));
    assert!(temp_files_on_disk(&vault_dir.join("big")).is_empty());
    let note = fs::read(vault_dir.join(NOTE)).unwrap();
    assert!(contents.contains(&note));
}
