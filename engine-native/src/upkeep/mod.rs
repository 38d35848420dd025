//! What a serving process does in the background: [`freshness`] keeps each vault's index
//! fresh (a watcher per vault, the start-up scan, the embedder of new chunks) and
//! [`cache_sweep`] sweeps the cache database on the `maintenance` interval. Queries never
//! wait for either.

pub mod cache_sweep;
pub mod freshness;
pub mod watch;

pub use cache_sweep::{run_maintenance, sweep_interval};
pub use freshness::{Freshness, keep_fresh};
