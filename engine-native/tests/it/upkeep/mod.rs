//! The background work of a serving process: the watcher keeping search fresh, the cache sweep.

mod cache_sweep;
mod freshness;
