//! Shared by the link-safe move tests (`tools::links::moves` in `it` and in `faults`).

use std::collections::BTreeSet;

use serde_json::json;

use super::{Fixture, Oracle, all_items};

/// The notes of the vault by how many notes link to them, most first (ties by path).
pub fn most_linked(fx: &Fixture, n: usize) -> Vec<(String, u64)> {
    let notes = all_items(fx, "find_orphans", json!({"limit": 1000}));
    let orphans: BTreeSet<String> = notes
        .iter()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    let oracle = Oracle::scan(&fx.vault_dir("main"));
    let mut counted: Vec<(String, u64)> = oracle
        .links
        .keys()
        .filter(|note| !orphans.contains(*note))
        .map(|note| {
            let total = fx.ok("get_backlinks", json!({"path": note, "limit": 1}))["total_count"]
                .as_u64()
                .expect("total_count");
            (note.clone(), total)
        })
        .collect();
    counted.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counted.truncate(n);
    counted
}

/// Where the move tests move `old`: `Moved here/<name> (moved).md`.
pub fn new_path(old: &str) -> String {
    let name = old.rsplit('/').next().unwrap_or(old);
    format!("Moved here/{} (moved).md", name.trim_end_matches(".md"))
}
