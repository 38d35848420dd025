//! What a server bridge tool adds over the TC Bridge route it wraps (issue 8, must-show 4):
//! `list_commands` through the whole dispatch pipeline (in process, as every transport calls
//! it) against a direct `POST /obsidian-tc/v1/commands/list` to the same companion, in the
//! same run, interleaved, both on keep-alive connections.
//!
//! ```text
//! cargo run --release -p bench --bin bench_companion [-- --calls 2000]
//! ```
//!
//! The companion is the tests' fake TC Bridge (an axum server on loopback answering each
//! route at once), so the figures are the server's own cost: validation, scopes, vault
//! binding, throttle and audit row, plus its HTTP client. The throttle is off so that the
//! calls are not rate limited.

#[path = "../engine-native/tests/it/support/companion.rs"]
mod companion_support;
#[path = "bench_support/stats.rs"]
mod stats;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::server::SystemClock;
use serde_json::{Value, json};

use companion_support::{FakeCompanion, Mode, TOKEN};
use stats::{Summary, summarize};

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// How many calls of each kind.
    #[arg(long, default_value_t = 1000)]
    calls: usize,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let companion = FakeCompanion::start(Mode::Reachable);
    let dir = tempfile::TempDir::new()?;
    std::fs::create_dir_all(dir.path().join("vault"))?;
    let config = json!({
        "vaults": [{"id": "main", "path": "vault", "companion": companion.config()}],
        "throttle": {"enabled": false},
    });
    let path = dir.path().join("config.json");
    std::fs::write(&path, config.to_string())?;
    let text = std::fs::read_to_string(&path)?;
    let loaded = load(&LoadInput {
        origin: ConfigOrigin::File { path, text },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    })
    .map_err(|problems| format!("config: {problems:?}"))?;
    let server = Dispatcher::new(loaded, Arc::new(SystemClock))?;
    let caller = Caller::stdio();
    let client = reqwest::blocking::Client::builder().no_proxy().build()?;
    let route = format!("{}/obsidian-tc/v1/commands/list", companion.url);

    let direct = || -> Result<(), Box<dyn std::error::Error>> {
        let answer: Value = client
            .post(&route)
            .bearer_auth(TOKEN)
            .json(&json!({}))
            .send()?
            .json()?;
        if answer["ok"] != true {
            return Err(format!("the route failed: {answer}").into());
        }
        Ok(())
    };
    let through_server = || -> Result<(), Box<dyn std::error::Error>> {
        server
            .call(&caller, "list_commands", json!({}))
            .result
            .map(drop)
            .map_err(|error| format!("list_commands failed: {error}").into())
    };

    // warm up both paths (connections, the start-up probe, caches)
    for _ in 0..50 {
        direct()?;
        through_server()?;
    }
    let mut direct_samples = Vec::with_capacity(args.calls);
    let mut server_samples = Vec::with_capacity(args.calls);
    for _ in 0..args.calls {
        let started = Instant::now();
        direct()?;
        direct_samples.push(started.elapsed());
        let started = Instant::now();
        through_server()?;
        server_samples.push(started.elapsed());
    }
    let direct = summary(&direct_samples)?;
    let served = summary(&server_samples)?;
    println!("{} calls each, interleaved", args.calls);
    println!(
        "plugin route  POST /obsidian-tc/v1/commands/list  p50 {:.3} ms  p90 {:.3} ms  p99 {:.3} ms",
        direct.median, direct.p90, direct.p99
    );
    println!(
        "server tool   list_commands (dispatch + route)   p50 {:.3} ms  p90 {:.3} ms  p99 {:.3} ms",
        served.median, served.p90, served.p99
    );
    println!(
        "added by the server: p50 {:.3} ms",
        served.median - direct.median
    );
    Ok(())
}

fn summary(samples: &[Duration]) -> Result<Summary, String> {
    summarize(samples).ok_or_else(|| "no samples".to_owned())
}
