//! The background work of a serving process: the watcher keeping search fresh, the cache sweep.

mod freshness;
mod maintenance;
