//! Shared helpers of the gate tests: calls that get past the human-approval gate, a snapshot
//! of every file under a folder (to prove a refused call changed nothing), and a tiny
//! deterministic pseudo-random source for kill delays.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use obsidian_tc::auth::Caller;
use obsidian_tc::dispatch::CallOutcome;
use obsidian_tc::errors::{ErrorCode, ToolError};
use serde_json::Value;

use crate::support::dispatch::Fixture;

/// The cache folder the fixture's config file implies (`.obsidian-tc` next to it); left out
/// of snapshots because every call writes its audit row there.
pub const CACHE_DIR: &str = ".obsidian-tc";

/// Whether `path` is a vault's `.obsidian-tc/locks` folder: the lock files every obsidian-tc
/// process on the vault shares (`vault::lock`), made by the first call that may write, even
/// one refused later. They hold no data; snapshots leave them out.
pub fn is_lock_folder(path: &Path) -> bool {
    path.ends_with(".obsidian-tc/locks")
}

/// What one entry of a snapshot is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A folder.
    Dir,
    /// A regular file and its bytes.
    File(Vec<u8>),
    /// A symlink and its target, as written.
    Link(String),
}

/// Every entry under `root` (symlinks not followed), by path relative to `root`, without the
/// cache folder and the vaults' `.obsidian-tc` folders (lock files).
pub fn snapshot(root: &Path) -> BTreeMap<String, Node> {
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Node>) {
    let entries = std::fs::read_dir(dir).expect("read_dir");
    for entry in entries {
        let path = entry.expect("dir entry").path();
        let rel = path
            .strip_prefix(root)
            .expect("under root")
            .to_string_lossy()
            .into_owned();
        // The cache folder, and a vault's own `.obsidian-tc` holding its lock files.
        if rel == CACHE_DIR || path.ends_with(CACHE_DIR) {
            continue;
        }
        let meta = std::fs::symlink_metadata(&path).expect("metadata");
        if meta.file_type().is_symlink() {
            let target = std::fs::read_link(&path).expect("read_link");
            out.insert(rel, Node::Link(target.to_string_lossy().into_owned()));
        } else if meta.is_dir() {
            out.insert(rel, Node::Dir);
            walk(root, &path, out);
        } else {
            out.insert(rel, Node::File(std::fs::read(&path).expect("read")));
        }
    }
}

/// Calls `tool` as the stdio caller; an `elicit_required` answer is approved (as the human
/// would) and the identical call made once more.
pub fn call_approved(fx: &Fixture, tool: &str, args: Value) -> CallOutcome {
    let first = fx.call(&Caller::stdio(), tool, args.clone());
    match &first.result {
        Err(error) if error.code == ErrorCode::ElicitRequired => {
            fx.approve_error(error);
            fx.call(&Caller::stdio(), tool, args)
        }
        _ => first,
    }
}

/// Like [`call_approved`], expecting the error `code`.
pub fn err_approved(fx: &Fixture, tool: &str, args: Value, code: ErrorCode) -> ToolError {
    match call_approved(fx, tool, args.clone()).result {
        Ok(value) => panic!("{tool} {args} succeeded with {value}, expected {code}"),
        Err(error) => {
            assert_eq!(error.code, code, "{tool} {args}: {error}");
            error
        }
    }
}

/// A small deterministic pseudo-random sequence (xorshift64*), so a failing run repeats.
pub struct Xorshift(pub u64);

impl Xorshift {
    /// A number in `0..bound`.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % bound.max(1)
    }
}
