//! What a serving process does in the background: [`freshness`] keeps each vault's index
//! fresh (a watcher per vault, the start-up scan, the embedder of new chunks) and
//! [`maintenance`] sweeps the cache database, expires overdue goals and, when a model is
//! configured, runs the contradiction detector on the `maintenance` interval. Queries never wait for either.

pub mod freshness;
pub mod maintenance;
pub mod watch;

pub use freshness::{Freshness, keep_fresh};
pub use maintenance::{detect_contradictions, expire_goals, run_maintenance, sweep_interval};
