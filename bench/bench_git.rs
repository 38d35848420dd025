//! The git tools' latency through the server, against same-run baselines.
//!
//! ```text
//! cargo build --release -p obsidian-tc --bin obsidian-tc
//! cargo build --release -p bench --bin bench_git
//! target/release/bench_git [--vault ../shared/vaults/pf2e-srd] [--bin target/release/obsidian-tc] [--calls 30]
//! ```
//!
//! The vault (pf2e-srd: 11,181 files) is copied to a temp folder and committed as one git
//! repository by the product's git module (the import, then five commits of one note each),
//! and one note is changed in the working tree. One stdio session then runs `--calls` rounds of
//! `git_status`, `git_log` (20 entries), `git_log` of one note and the baselines `read_note`
//! and `ping`, in rotating order, after an untimed round. For information, the `git` CLI's own
//! `git status --porcelain` is timed on the same repository when it is installed (a process
//! start included). Skips (exit 0) when the vault is absent.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use clap::Parser;
use git2::{IndexAddOption, Repository};
use obsidian_tc::vcs::{self, VaultRepo};
use serde_json::{Value, json};

use bench::programs::product;
use bench::rpc::{Session, expect_success, handshake};
use bench::server::{obsidian_tc, unthrottled};
use bench::stats::summarize;
use bench::stdio_client::StdioSession;

/// The benchmark's options.
#[derive(Debug, Parser)]
struct Args {
    /// The vault to commit and serve.
    #[arg(long, default_value = "../shared/vaults/pf2e-srd")]
    vault: PathBuf,
    /// The obsidian-tc binary (else OBSIDIAN_TC_BIN, else `obsidian-tc` next to this program).
    #[arg(long)]
    bin: Option<PathBuf>,
    /// Timed calls of each kind.
    #[arg(long, default_value_t = 30)]
    calls: usize,
}

/// The note whose history is timed, and the one changed in the working tree.
const NOTE: &str = "license.md";

fn main() -> ExitCode {
    let args = Args::parse();
    if !args.vault.is_dir() {
        println!(
            "bench_git: skipped, the vault {} is absent",
            args.vault.display()
        );
        return ExitCode::SUCCESS;
    }
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("bench_git: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let bin = product(args.bin.clone())?;
    let temp = tempfile::tempdir().map_err(|e| format!("cannot make a temp folder: {e}"))?;
    let repo_dir = temp.path().join("pf2e-git");
    eprintln!("copying {} and committing it", args.vault.display());
    copy_tree(&args.vault, &repo_dir)?;
    commit_history(&repo_dir)?;
    std::fs::write(repo_dir.join(NOTE), "changed in the working tree\n")
        .map_err(|e| format!("cannot change {NOTE}: {e}"))?;

    let command = unthrottled(obsidian_tc(
        &bin,
        &repo_dir,
        &temp.path().join("cache"),
        None,
    ));
    let mut session = StdioSession::spawn(command)?;
    handshake(&mut session)?;
    let calls: [(&str, &str, Value); 5] = [
        ("git_status", "tools/call", tool("git_status", json!({}))),
        (
            "git_log (20)",
            "tools/call",
            tool("git_log", json!({"limit": 20})),
        ),
        (
            "git_log of one note",
            "tools/call",
            tool("git_log", json!({"path": NOTE})),
        ),
        (
            "read_note (baseline)",
            "tools/call",
            tool("read_note", json!({"path": "readme.md"})),
        ),
        ("ping (baseline)", "ping", json!({})),
    ];
    eprintln!("{} rounds of {} calls", args.calls, calls.len());
    let mut samples: Vec<Vec<Duration>> = vec![Vec::new(); calls.len()];
    let mut id = 1;
    for round in 0..=args.calls {
        for step in 0..calls.len() {
            let which = (round + step) % calls.len();
            let (name, method, params) = &calls[which];
            id += 1;
            let (took, response) = session.request(id, method, params.clone())?;
            expect_success(&response, name)?;
            if round > 0 {
                samples[which].push(took);
            }
        }
    }
    let baseline = median(&samples[3]);
    println!(
        "{:<28} {:>10} {:>10}  ratio to read_note",
        "measurement (ms)", "median", "p90"
    );
    for ((name, _, _), taken) in calls.iter().zip(&samples) {
        let summary = summarize(taken).ok_or("no samples")?;
        println!(
            "{name:<28} {:>10.3} {:>10.3}  {:.1}x",
            summary.median,
            summary.p90,
            summary.median / baseline
        );
    }
    if let Some(cli) = git_cli_status(&repo_dir, args.calls) {
        let summary = summarize(&cli).ok_or("no samples")?;
        println!(
            "{:<28} {:>10.3} {:>10.3}  (for information: a process of its own)",
            "git CLI status --porcelain", summary.median, summary.p90
        );
    }
    Ok(())
}

fn tool(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

fn median(samples: &[Duration]) -> f64 {
    summarize(samples).map_or(f64::NAN, |s| s.median)
}

/// Copies the files of `from` into `to` (folders made, symbolic links skipped).
fn copy_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for entry in std::fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target)
                .map_err(|e| format!("{}: {e}", target.display()))?;
        }
    }
    Ok(())
}

/// The import and five commits of one note each, staged and committed by the product's
/// own git module (its commits carry the repository's identity, or obsidian-tc's).
fn commit_history(dir: &Path) -> Result<(), String> {
    let git = |e: git2::Error| format!("git: {e}");
    let repo = Repository::init(dir).map_err(git)?;
    std::fs::write(dir.join(".gitignore"), ".obsidian-tc/\n").map_err(|e| e.to_string())?;
    let mut index = repo.index().map_err(git)?;
    index
        .add_all(["*"], IndexAddOption::DEFAULT, None)
        .map_err(git)?;
    index.write().map_err(git)?;
    let vault = VaultRepo::open(dir).map_err(|e| e.to_string())?;
    for step in 0..6_i64 {
        if step > 0 {
            std::fs::write(dir.join(NOTE), format!("edit {step}\n")).map_err(|e| e.to_string())?;
            vcs::stage(&vault, &[NOTE.to_owned()]).map_err(|e| e.to_string())?;
        }
        vcs::commit(&vault, &format!("commit {step}")).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn git_cli_status(dir: &Path, calls: usize) -> Option<Vec<Duration>> {
    let mut samples = Vec::with_capacity(calls);
    for _ in 0..=calls {
        let started = Instant::now();
        let output = Command::new("git")
            .args(["status", "--porcelain"])
            .current_dir(dir)
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        samples.push(started.elapsed());
    }
    samples.remove(0);
    Some(samples)
}
