//! The per-note write queue: calls that change the vault take turns on each file, in the
//! order they arrived, so a read-modify-write (`append_note`, `add_tag`, `update_task`, …)
//! never fails because another call touched the same note a moment earlier.
//!
//! A call that may write runs inside [`serialized`] (dispatch wraps every mutating tool in
//! it). Inside, the first file the call reads or changes through [`Vault`] is *entered*: the
//! call takes a ticket for that file's canonical vault path and waits until the calls before
//! it have finished with it. It keeps its turn until the call ends, so the read and the write
//! that follows it see no other writer of this server in between. Further files the same
//! call changes are entered only when nobody else holds or awaits them, and further files it
//! only reads are not entered (a scan of the vault by a tag rename holds no turns on the
//! notes it does not change). A call never waits while holding a turn, so two calls can
//! never wait for each other; a file not entered is still protected by the SHA-256
//! precondition of the write, as before.
//!
//! Calls outside [`serialized`] (read-only tools, the indexer) never wait. Each vault handle
//! has its own queue; a file's line is removed as soon as nobody holds or awaits it, so the
//! memory is bounded by the calls in flight. Each file entered also holds its stripe of the
//! cross-process locks (`vault::lock`), taken after the turn in this process (so this
//! process's order is kept) on the same terms: waited for on the first file, only taken when
//! free on the others (a further file another process holds is not entered). Writers that take
//! no lock (Obsidian, TC Bridge's own tools, sync clients) are not in this queue: against them
//! the SHA-256 precondition still answers `concurrent_modification`.
//!
//! Hand-written: a FIFO (ticket) lock keyed by path, held across a call on the thread that
//! runs it, is a few lines over `Mutex` and `Condvar`; the crates with keyed locks are async
//! or not FIFO.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::handle::Vault;
use super::lock::{ProcessLocks, Wait};

/// The turns of one vault's files.
#[derive(Debug, Default)]
pub(crate) struct NoteQueue {
    lines: Mutex<HashMap<String, Line>>,
}

/// One file's line: the next ticket to hand out, the ticket being served, and where the
/// waiters sleep.
#[derive(Debug)]
struct Line {
    next: u64,
    serving: u64,
    turn: Arc<Condvar>,
}

impl NoteQueue {
    fn lines(&self) -> MutexGuard<'_, HashMap<String, Line>> {
        // The map is only changed in whole steps under the lock: a panic cannot tear it.
        self.lines.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for `key`'s turn behind every call that arrived before.
    fn enter(&self, key: &str) {
        let mut lines = self.lines();
        let line = lines.entry(key.to_owned()).or_insert_with(|| Line {
            next: 0,
            serving: 0,
            turn: Arc::new(Condvar::new()),
        });
        let ticket = line.next;
        line.next += 1;
        let turn = Arc::clone(&line.turn);
        let _served = turn
            .wait_while(lines, |lines| {
                lines.get(key).is_some_and(|line| line.serving != ticket)
            })
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// Takes `key`'s turn when nobody holds or awaits it; `false` otherwise.
    fn try_enter(&self, key: &str) -> bool {
        let mut lines = self.lines();
        if lines.contains_key(key) {
            return false;
        }
        lines.insert(
            key.to_owned(),
            Line {
                next: 1,
                serving: 0,
                turn: Arc::new(Condvar::new()),
            },
        );
        true
    }

    /// Ends the current turn on `key`: the next ticket is served, or the line is removed.
    fn leave(&self, key: &str) {
        let mut lines = self.lines();
        let Some(line) = lines.get_mut(key) else {
            return;
        };
        line.serving += 1;
        if line.serving == line.next {
            lines.remove(key);
        } else {
            line.turn.notify_all();
        }
    }

    /// How many files have a line now (held or awaited).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lines().len()
    }
}

/// The turns the call running on this thread holds, on one vault's queue, each with whether
/// it holds the file's cross-process stripe too.
struct Held {
    queue: Arc<NoteQueue>,
    locks: Arc<ProcessLocks>,
    keys: Vec<(String, bool)>,
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// Runs `call` as one writer of `vault`: the files it touches through `vault` are taken in
/// turn (see the module doc) and released when it returns or panics. A call nested in one
/// already running on this thread joins it.
pub fn serialized<T>(vault: &Vault, call: impl FnOnce() -> T) -> T {
    let nested = HELD.with(|slot| slot.borrow().is_some());
    if nested {
        return call();
    }
    HELD.with(|slot| {
        *slot.borrow_mut() = Some(Held {
            queue: Arc::clone(vault.note_queue()),
            locks: Arc::clone(vault.process_locks()),
            keys: Vec::new(),
        });
    });
    let _release = Release;
    call()
}

/// Leaves every turn the thread's call holds when dropped.
struct Release;

impl Drop for Release {
    fn drop(&mut self) {
        if let Some(held) = HELD.with(|slot| slot.borrow_mut().take()) {
            for (key, striped) in &held.keys {
                if *striped {
                    held.locks.release(key);
                }
                held.queue.leave(key);
            }
        }
    }
}

impl Vault {
    /// Takes the turn on the canonical vault path `rel` for the call running on this thread,
    /// when it runs [`serialized`] on this vault and does not hold it yet: waits for it when
    /// the call holds no other turn; else, for a change (not a read), takes it only if it is
    /// free. Called by every read and every mutation before it looks at the file.
    pub(super) fn queue_note(&self, rel: &str, access: Access) {
        let queue = HELD.with(|slot| {
            let slot = slot.borrow();
            let held = slot.as_ref()?;
            let ours = Arc::ptr_eq(&held.queue, self.note_queue());
            let first = held.keys.is_empty();
            let new = !held.keys.iter().any(|(key, _)| key == rel);
            (ours && (first || access == Access::Change) && new)
                .then(|| (Arc::clone(&held.queue), Arc::clone(&held.locks), first))
        });
        let Some((queue, locks, first)) = queue else {
            return;
        };
        let entered = if first {
            queue.enter(rel);
            true
        } else {
            queue.try_enter(rel)
        };
        if !entered {
            return;
        }
        let wait = if first { Wait::Block } else { Wait::IfFree };
        let striped = match locks.acquire(rel, wait) {
            Ok(true) => true,
            Ok(false) => {
                // Another process holds it: not entered, like a file busy in this process.
                queue.leave(rel);
                return;
            }
            Err(error) => {
                // The write itself takes the commit lock in the same folder and reports why.
                tracing::warn!(path = rel, %error, "the cross-process lock of a note could not be taken");
                false
            }
        };
        HELD.with(|slot| {
            if let Some(held) = slot.borrow_mut().as_mut() {
                held.keys.push((rel.to_owned(), striped));
            }
        });
    }

    /// Takes the turn on the file `path` names before a change (see [`Vault::queue_note`]);
    /// a path that does not resolve is left to the operation, which refuses it.
    pub(super) fn queue_path(&self, path: &str) {
        if let Ok(target) = self.resolve(path) {
            self.queue_note(&target.rel, Access::Change);
        }
    }
}

/// What the call is about to do with a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    /// Read it.
    Read,
    /// Write, move, copy or delete it.
    Change,
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    use super::*;
    use crate::vault::{VaultOptions, WriteOptions};

    #[test]
    fn turns_are_served_in_arrival_order_and_lines_are_removed_when_idle() {
        let queue = Arc::new(NoteQueue::default());
        queue.enter("a.md");
        let (order_tx, order_rx) = mpsc::channel();
        let mut waiters = Vec::new();
        for n in 0..5 {
            let waiter = Arc::clone(&queue);
            let order = order_tx.clone();
            waiters.push(thread::spawn(move || {
                waiter.enter("a.md");
                order.send(n).unwrap();
                waiter.leave("a.md");
            }));
            // Each waiter has its ticket before the next one starts.
            while queue.lines()["a.md"].next != n + 2 {
                thread::yield_now();
            }
        }
        assert!(!queue.try_enter("a.md"), "a held line is not free");
        queue.leave("a.md");
        waiters.into_iter().for_each(|w| w.join().unwrap());
        let order: Vec<u64> = order_rx.try_iter().collect();
        assert_eq!(order, [0, 1, 2, 3, 4]);
        assert_eq!(queue.len(), 0);
    }

    #[test]
    fn a_held_file_does_not_hold_up_another() {
        let queue = Arc::new(NoteQueue::default());
        queue.enter("busy.md");
        let other = Arc::clone(&queue);
        let (done_tx, done_rx) = mpsc::channel();
        thread::spawn(move || {
            other.enter("free.md");
            other.leave("free.md");
            done_tx.send(()).unwrap();
        });
        done_rx
            .recv_timeout(Duration::from_secs(5))
            .expect("free.md was entered while busy.md is held");
        queue.leave("busy.md");
        assert_eq!(queue.len(), 0);
    }

    #[test]
    fn a_call_holds_its_first_file_and_the_files_it_changes_not_the_others_it_reads() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["first.md", "read.md", "changed.md"] {
            std::fs::write(dir.path().join(name), name).unwrap();
        }
        let vault = Vault::open(dir.path(), VaultOptions::default()).unwrap();
        let overwrite = WriteOptions {
            overwrite: true,
            ..WriteOptions::default()
        };
        serialized(&vault, || {
            vault.read("first.md").unwrap();
            vault.read("read.md").unwrap();
            vault.write("changed.md", b"new", &overwrite).unwrap();
            let queue = vault.note_queue();
            assert!(!queue.try_enter("first.md"));
            assert!(!queue.try_enter("changed.md"));
            assert!(queue.try_enter("read.md"), "a file only read is not held");
            queue.leave("read.md");
        });
        assert_eq!(vault.note_queue().len(), 0, "every turn ends with the call");
    }

    /// Two handles on one vault: each has its own lock files open, as two processes do.
    fn two_processes(names: &[&str]) -> (tempfile::TempDir, Vault, Arc<Vault>) {
        let dir = tempfile::tempdir().unwrap();
        for name in names {
            std::fs::write(dir.path().join(name), name).unwrap();
        }
        let ours = Vault::open(dir.path(), VaultOptions::default()).unwrap();
        let theirs = Arc::new(Vault::open(dir.path(), VaultOptions::default()).unwrap());
        (dir, ours, theirs)
    }

    #[test]
    fn another_process_reading_a_held_note_to_change_it_waits_for_the_call_to_end() {
        let (_dir, ours, theirs) = two_processes(&["log.md"]);
        let (done_tx, done_rx) = mpsc::channel();
        serialized(&ours, || {
            ours.read("log.md").unwrap();
            let other = Arc::clone(&theirs);
            thread::spawn(move || {
                serialized(&other, || other.read("log.md").unwrap());
                done_tx.send(()).unwrap();
            });
            assert!(
                done_rx.recv_timeout(Duration::from_millis(300)).is_err(),
                "the other process read the note while this call held it"
            );
        });
        done_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("the other process went on once the call ended");
        assert_eq!(ours.process_locks().held(), 0);
    }

    #[test]
    fn a_further_note_another_process_holds_is_not_waited_for() {
        let (_dir, ours, theirs) = two_processes(&["first.md", "busy.md"]);
        let (held_tx, held_rx) = mpsc::channel();
        let (end_tx, end_rx) = mpsc::channel::<()>();
        let other = Arc::clone(&theirs);
        let holder = thread::spawn(move || {
            serialized(&other, || {
                other.read("busy.md").unwrap();
                held_tx.send(()).unwrap();
                end_rx.recv().unwrap();
            });
        });
        held_rx.recv().unwrap();
        let overwrite = WriteOptions {
            overwrite: true,
            ..WriteOptions::default()
        };
        serialized(&ours, || {
            ours.read("first.md").unwrap();
            ours.write("busy.md", b"changed", &overwrite).unwrap();
            assert_eq!(
                ours.process_locks().held(),
                1,
                "only first.md's stripe is held"
            );
        });
        end_tx.send(()).unwrap();
        holder.join().unwrap();
    }
}
