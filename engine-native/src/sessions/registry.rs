//! [`Sessions`]: which session each caller has open in each vault, with starting, ending and
//! tracing. The trace files are the only state: a vault's open sessions are found from its
//! files (a session is open while its last record is not an end record) the first time the
//! process meets the vault, so a restarted server continues the sessions it left open.

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use super::files::{self, is_session_id};
use super::reader::{first_record, last_record};
use super::record::{CallRecord, EndRecord, Record, StartRecord};

/// The folder under the cache directory that holds one trace folder per vault.
pub const TRACES_DIR: &str = "traces";

/// The tools whose calls are not traced as calls: the start and end records stand for them.
pub const UNTRACED_TOOLS: [&str; 2] = ["start_session", "end_session"];

/// A session: who, where, why, when, and where its trace is.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionInfo {
    /// How it began (id, caller, vault, label, goal, start time).
    pub start: StartRecord,
    /// When it ended, if it has.
    pub ended_at: Option<String>,
    /// Its active trace file, relative to the cache directory (`traces/<vault>/<id>.jsonl`).
    pub trace_file: String,
}

/// The open sessions of a server, by vault and caller.
#[derive(Debug)]
pub struct Sessions {
    root: PathBuf,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// The vaults whose folder was read for open sessions.
    scanned: HashSet<String>,
    /// The open session of each (vault, caller).
    open: HashMap<(String, String), Arc<OpenSession>>,
}

/// An open session; its mutex serialises the writes to its file (and says when it ended).
#[derive(Debug)]
struct OpenSession {
    start: StartRecord,
    ended: Mutex<bool>,
}

impl Sessions {
    /// The sessions whose traces live under `<cache_dir>/traces/`.
    pub fn new(cache_dir: &Path) -> Sessions {
        Sessions {
            root: cache_dir.join(TRACES_DIR),
            state: Mutex::new(State::default()),
        }
    }

    /// The trace folder of `vault`.
    pub fn vault_dir(&self, vault: &str) -> PathBuf {
        self.root.join(vault)
    }

    /// The open session of `caller` in `vault`, or a new one (id `id`, labelled) started at
    /// `ts`: a caller has at most one open session per vault, and starting again while it is
    /// open answers that session unchanged.
    pub fn start(&self, new: StartRecord) -> io::Result<SessionInfo> {
        let mut state = self.state();
        if let Some(open) = self.open_in(&mut state, &new.vault, &new.caller) {
            return Ok(self.info(open.start.clone(), None));
        }
        files::create(
            &self.vault_dir(&new.vault),
            &new.session,
            &Record::Start(new.clone()).to_line(),
        )?;
        let key = (new.vault.clone(), new.caller.clone());
        let open = Arc::new(OpenSession {
            start: new.clone(),
            ended: Mutex::new(false),
        });
        state.open.insert(key, open);
        Ok(self.info(new, None))
    }

    /// Ends session `id` (default: `caller`'s open session in `vault`) at `ts` with an end
    /// record, flushed to disk. A session that has ended is answered as it is, unchanged.
    /// `NotFound` when there is no such session of `caller` in `vault`.
    pub fn end(
        &self,
        vault: &str,
        caller: &str,
        id: Option<&str>,
        ts: &str,
    ) -> io::Result<SessionInfo> {
        let mut state = self.state();
        let open = self.open_in(&mut state, vault, caller);
        let id = match (id, &open) {
            (Some(id), _) => id.to_owned(),
            (None, Some(open)) => open.start.session.clone(),
            (None, None) => return Err(no_session()),
        };
        let dir = self.vault_dir(vault);
        let start = match &open {
            Some(open) if open.start.session == id => open.start.clone(),
            _ => self.own_start(vault, caller, &id)?,
        };
        if let Some(Record::End(end)) = last_record(&dir, &id)? {
            return Ok(self.info(start, Some(end.ts)));
        }
        let lock = open.as_ref().filter(|open| open.start.session == id);
        let mut ended = lock.map(|open| lock_ignoring_poison(&open.ended));
        let end = Record::End(EndRecord { ts: ts.to_owned() });
        files::append(&dir, &id, &end.to_line(), u64::MAX)?.sync_all()?;
        if let Some(ended) = ended.as_deref_mut() {
            *ended = true;
            state.open.remove(&(vault.to_owned(), caller.to_owned()));
        }
        Ok(self.info(start, Some(ts.to_owned())))
    }

    /// Appends the call `make` describes to the trace of `caller`'s open session in `vault`,
    /// if there is one and `tool` is traced; the file is rotated past `max_file_bytes`.
    /// Whether it was written.
    pub fn trace(
        &self,
        vault: &str,
        caller: &str,
        tool: &str,
        max_file_bytes: u64,
        make: impl FnOnce() -> CallRecord,
    ) -> io::Result<bool> {
        if UNTRACED_TOOLS.contains(&tool) {
            return Ok(false);
        }
        let open = {
            let mut state = self.state();
            self.open_in(&mut state, vault, caller)
        };
        let Some(open) = open else {
            return Ok(false);
        };
        let ended = lock_ignoring_poison(&open.ended);
        if *ended {
            return Ok(false);
        }
        let line = Record::Call(make()).to_line();
        files::append(
            &self.vault_dir(vault),
            &open.start.session,
            &line,
            max_file_bytes,
        )?;
        Ok(true)
    }

    /// The id of `caller`'s open session in `vault`, if there is one.
    pub fn open_session(&self, vault: &str, caller: &str) -> Option<String> {
        let mut state = self.state();
        self.open_in(&mut state, vault, caller)
            .map(|open| open.start.session.clone())
    }

    /// The sessions of `caller` in `vault` (open or ended), by start time.
    pub fn sessions_of(&self, vault: &str, caller: &str) -> io::Result<Vec<StartRecord>> {
        let dir = self.vault_dir(vault);
        let mut starts = Vec::new();
        for id in files::session_ids(&dir)? {
            if let Some(Record::Start(start)) = first_record(&dir, &id)?
                && start.caller == caller
                && start.session == id
            {
                starts.push(start);
            }
        }
        starts.sort_by(|a, b| (&a.ts, &a.session).cmp(&(&b.ts, &b.session)));
        Ok(starts)
    }

    /// How session `id` of `caller` in `vault` began; `NotFound` when it is not theirs.
    pub fn own_start(&self, vault: &str, caller: &str, id: &str) -> io::Result<StartRecord> {
        if !is_session_id(id) {
            return Err(no_session());
        }
        match first_record(&self.vault_dir(vault), id) {
            Ok(Some(Record::Start(start))) if start.caller == caller && start.session == id => {
                Ok(start)
            }
            Ok(_) => Err(no_session()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Err(no_session()),
            Err(error) => Err(error),
        }
    }

    /// Forgets the open sessions of `vault` among `ids` (their files were deleted).
    pub(super) fn forget(&self, vault: &str, ids: &[String]) {
        self.state()
            .open
            .retain(|(v, _), open| v != vault || !ids.contains(&open.start.session));
    }

    /// The vault ids that have a trace folder.
    pub(super) fn vaults(&self) -> io::Result<Vec<String>> {
        let entries = match std::fs::read_dir(&self.root) {
            Ok(entries) => entries,
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(error),
        };
        let mut vaults = Vec::new();
        for entry in entries {
            let entry = entry?;
            if entry.file_type()?.is_dir()
                && let Some(name) = entry.file_name().to_str()
            {
                vaults.push(name.to_owned());
            }
        }
        Ok(vaults)
    }

    fn info(&self, start: StartRecord, ended_at: Option<String>) -> SessionInfo {
        let trace_file = format!("{TRACES_DIR}/{}/{}.jsonl", start.vault, start.session);
        SessionInfo {
            start,
            ended_at,
            trace_file,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        lock_ignoring_poison(&self.state)
    }

    /// `caller`'s open session in `vault`, reading the vault's trace folder first if this
    /// process has not yet.
    fn open_in(&self, state: &mut State, vault: &str, caller: &str) -> Option<Arc<OpenSession>> {
        if state.scanned.insert(vault.to_owned()) {
            self.scan(state, vault);
        }
        state
            .open
            .get(&(vault.to_owned(), caller.to_owned()))
            .cloned()
    }

    /// Finds the open sessions in `vault`'s trace folder (a damaged file is passed over).
    fn scan(&self, state: &mut State, vault: &str) {
        let dir = self.vault_dir(vault);
        let Ok(ids) = files::session_ids(&dir) else {
            return;
        };
        for id in ids {
            let Ok(Some(Record::Start(start))) = first_record(&dir, &id) else {
                continue;
            };
            if start.vault != vault
                || start.session != id
                || matches!(last_record(&dir, &id), Ok(Some(Record::End(_))) | Err(_))
            {
                continue;
            }
            let key = (vault.to_owned(), start.caller.clone());
            let later = state
                .open
                .get(&key)
                .is_none_or(|known| (&known.start.ts, &known.start.session) < (&start.ts, &id));
            if later {
                let ended = Mutex::new(false);
                state
                    .open
                    .insert(key, Arc::new(OpenSession { start, ended }));
            }
        }
    }
}

fn no_session() -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, "no such session")
}

fn lock_ignoring_poison<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
