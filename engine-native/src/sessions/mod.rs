//! Sessions and their JSONL traces (issue 23, domain D23): while a caller has a session open
//! in a vault, every tool call it makes there is one line of the session's trace file,
//! `<cacheDir>/traces/<vault>/<session id>.jsonl` — the tool, the args hash (the arguments
//! only under `traces.includeArguments`), the outcome, the duration, the files the call
//! changed, whether it was replayed. No database: the files are the state, found again
//! after a restart.
//!
//! - [`record`]: the kinds of line (start, call, verdict, end).
//! - [`files`]: one session's files, appends with `O_APPEND`, rotation by size.
//! - [`reader`]: reading a trace back, torn lines skipped and counted.
//! - [`registry`]: the open session of each caller in each vault: start, end, trace.
//! - [`retention`]: old sessions deleted.

pub mod files;
pub mod reader;
pub mod record;
pub mod registry;
pub mod retention;

pub use files::is_session_id;
pub use reader::{SessionLog, read_session};
pub use record::{CallRecord, EndRecord, Record, StartRecord, TraceOutcome, VerdictRecord};
pub use registry::{SessionInfo, Sessions, TRACES_DIR, UNTRACED_TOOLS};
