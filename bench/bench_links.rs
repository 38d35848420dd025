//! `get_backlinks` latency on a large real vault, in process through the real `Dispatcher`
//! (all gates, the real indexer and `cache.db`), the vault used in place and only read.
//!
//! ```text
//! cargo run --release -p bench --bin bench_links \
//!     -- [/work/shared/vaults/pf2e-srd] [calls (default 400)]
//! ```
//!
//! Indexes the vault into a temp cache, picks the 20 most-linked notes and 20 notes drawn
//! evenly from the sorted note list, warms up (the first call builds the link table: its
//! time is printed apart), then times `calls` calls of `get_backlinks` (limit 50) cycling
//! over those 40 notes and prints p50 / p95 / max.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::runtime::SystemClock;
use serde_json::{Value, json};

fn main() -> Result<(), String> {
    let mut argv = std::env::args().skip(1);
    let vault = argv
        .next()
        .unwrap_or_else(|| "/work/shared/vaults/pf2e-srd".to_owned());
    let calls: usize = argv
        .next()
        .map(|n| n.parse().map_err(|e| format!("calls: {e}")))
        .transpose()?
        .unwrap_or(400);
    let work = tempfile::TempDir::new().map_err(|e| e.to_string())?;
    let server = open(work.path(), Path::new(&vault))?;
    let caller = Caller::stdio();
    let call = |tool: &str, args: Value| -> Result<Value, String> {
        server
            .call(&caller, tool, args)
            .result
            .map_err(|e| format!("{tool}: {e}"))
    };
    let started = Instant::now();
    call("index_vault", json!({}))?;
    println!("index_vault: {:.0} ms", ms(started));

    let started = Instant::now();
    call(
        "get_backlinks",
        json!({"path": first_note(&call)?, "limit": 1}),
    )?;
    println!(
        "first get_backlinks (builds the link table): {:.0} ms",
        ms(started)
    );

    let notes = pick_notes(&server, &call)?;
    for note in &notes {
        call("get_backlinks", json!({"path": note, "limit": 50}))?;
    }
    let mut times = Vec::with_capacity(calls);
    let mut returned = 0;
    for i in 0..calls {
        let note = &notes[i % notes.len()];
        let started = Instant::now();
        let page = call("get_backlinks", json!({"path": note, "limit": 50}))?;
        times.push(ms(started));
        returned += page["items"].as_array().map_or(0, Vec::len);
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).saturating_sub(1)];
    println!(
        "get_backlinks over {calls} calls on {} notes ({returned} linking notes returned): p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms",
        notes.len(),
        at(0.50),
        at(0.95),
        times[times.len() - 1]
    );
    Ok(())
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// A server on `vault` (read in place) with its cache under `work`.
fn open(work: &Path, vault: &Path) -> Result<Dispatcher, String> {
    let vault = vault
        .canonicalize()
        .map_err(|e| format!("{}: {e}", vault.display()))?;
    let config = json!({
        "vaults": [{"id": "bench", "path": vault.to_string_lossy()}],
        "cacheDir": work.join("cache").to_string_lossy(),
        "throttle": {"enabled": false},
        "index": {"scanOnStart": false, "watch": false},
        "embeddings": {"provider": "none"},
    });
    let path = work.join("config.json");
    std::fs::write(&path, config.to_string()).map_err(|e| e.to_string())?;
    let loaded = load(&LoadInput {
        origin: ConfigOrigin::File {
            path,
            text: config.to_string(),
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    })
    .map_err(|e| format!("invalid config: {e}"))?;
    Dispatcher::new(loaded, Arc::new(SystemClock)).map_err(|e| format!("server: {e}"))
}

type Call<'a> = dyn Fn(&str, Value) -> Result<Value, String> + 'a;

fn first_note(call: &Call<'_>) -> Result<String, String> {
    let page = call("list_notes", json!({"limit": 1}))?;
    page["items"][0]["path"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| "the vault has no notes".to_owned())
}

/// The 20 most-linked notes and 20 notes spread over the sorted list.
fn pick_notes(server: &Dispatcher, call: &Call<'_>) -> Result<Vec<String>, String> {
    let rows = server.runtime().store().link_graph();
    let notes = rows.note_paths("bench").map_err(|e| e.to_string())?;
    let mut counts: Vec<(usize, String)> = Vec::new();
    for note in notes.iter().step_by((notes.len() / 400).max(1)) {
        let page = call("get_backlinks", json!({"path": note, "limit": 1}))?;
        counts.push((
            page["total_count"].as_u64().unwrap_or(0) as usize,
            note.clone(),
        ));
    }
    counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut picked: Vec<String> = counts.iter().take(20).map(|(_, n)| n.clone()).collect();
    println!(
        "most-linked sampled notes: {} .. {} linking notes",
        counts.first().map_or(0, |c| c.0),
        counts.get(19).map_or(0, |c| c.0)
    );
    picked.extend(
        notes
            .iter()
            .step_by((notes.len() / 20).max(1))
            .take(20)
            .cloned(),
    );
    Ok(picked)
}
