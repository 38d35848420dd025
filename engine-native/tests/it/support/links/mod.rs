//! Shared by the links_* tests: a copy of a real vault in the fixture's `main` vault, calls
//! that pass the human confirmation, a byte snapshot of a vault, and an independent oracle
//! for link counts (a plain scan of the files, written here, not the code under test).
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use obsidian_tc::errors::{ErrorCode, ToolError};
use serde_json::Value;

pub use crate::support::dispatch::*;

pub mod moves;
pub mod rewrite;

/// The Obsidian help vault (English), read in place only.
pub const HELP_VAULT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../shared/vaults/obsidian-help-en"
);

/// A fixture whose `main` vault is a copy of `source`, indexed.
pub fn fixture_with_copy(source: &str) -> Fixture {
    let fx = Fixture::new(serde_json::json!({"throttle": {"enabled": false}}));
    copy_dir(Path::new(source), &fx.vault_dir("main"));
    fx.ok("index_vault", serde_json::json!({}));
    fx
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            copy_dir(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// Calls `tool` as stdio; when it asks for confirmation, approves it and calls again.
pub fn confirmed(fx: &Fixture, tool: &str, args: Value) -> Result<Value, ToolError> {
    let caller = obsidian_tc::auth::Caller::stdio();
    match fx.call(&caller, tool, args.clone()).result {
        Err(error) if error.code == ErrorCode::ElicitRequired => {
            fx.approve_error(&error);
            fx.call(&caller, tool, args).result
        }
        other => other,
    }
}

/// Every page of a paged link tool, items concatenated.
pub fn all_items(fx: &Fixture, tool: &str, mut args: Value) -> Vec<Value> {
    let mut items = Vec::new();
    loop {
        let page = fx.ok(tool, args.clone());
        items.extend(page["items"].as_array().expect("items").iter().cloned());
        match page["cursor"].as_str() {
            Some(cursor) => args["cursor"] = Value::from(cursor),
            None => return items,
        }
    }
}

/// How many links `find_unresolved_links` reports for the whole vault.
pub fn unresolved_count(fx: &Fixture) -> u64 {
    fx.ok("find_unresolved_links", serde_json::json!({"limit": 1}))["total_count"]
        .as_u64()
        .expect("total_count")
}

/// The test's own reading of a vault's links: a plain scan of each note's text (fenced code,
/// inline code and `%%` comments blanked out), wikilinks / embeds by `[[...]]`, markdown
/// links by `[...](dest)` without a URI scheme, resolved by file name, then by exact path,
/// then by path suffix (shortest first).
pub struct Oracle {
    /// Note path -> the targets as written of its links (file part, decoded).
    pub links: BTreeMap<String, Vec<String>>,
    files: Vec<String>,
}

impl Oracle {
    pub fn scan(root: &Path) -> Oracle {
        let files: Vec<String> = snapshot(root)
            .into_keys()
            .filter(|p| !p.starts_with('.') && !p.contains("/."))
            .collect();
        let mut links = BTreeMap::new();
        for file in files.iter().filter(|f| f.ends_with(".md")) {
            let text = std::fs::read_to_string(root.join(file)).expect("utf-8 note");
            links.insert(file.clone(), scan_links(&blank_code(&text)));
        }
        Oracle { links, files }
    }

    /// Where `target` (written in `source`) resolves, if anywhere.
    pub fn resolve(&self, target: &str, source: &str) -> Option<String> {
        if target.is_empty() {
            return Some(source.to_owned());
        }
        let wanted = target.trim_start_matches('/').to_lowercase();
        let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_lowercase();
        let by_name = |w: &str| -> Vec<&String> {
            let n = name(w);
            self.files.iter().filter(|f| name(f) == n).collect()
        };
        let mut candidates = if name(&wanted).contains('.') {
            by_name(&wanted)
        } else {
            Vec::new()
        };
        let mut wanted = wanted;
        if candidates.is_empty() {
            wanted.push_str(".md");
            candidates = by_name(&wanted);
        }
        if candidates.len() == 1 && !wanted.contains('/') {
            return Some(candidates[0].clone());
        }
        if let Some(exact) = candidates.iter().find(|f| f.to_lowercase() == wanted) {
            return Some((*exact).clone());
        }
        let mut suffix: Vec<&&String> = candidates
            .iter()
            .filter(|f| f.to_lowercase().ends_with(&wanted))
            .collect();
        suffix.sort_by_key(|f| f.len());
        suffix.first().map(|f| (**f).clone())
    }

    /// The notes (other than `path`) with a link resolving to `path`.
    pub fn backlinks(&self, path: &str) -> BTreeSet<String> {
        self.links
            .iter()
            .filter(|(source, _)| source.as_str() != path)
            .filter(|(source, targets)| {
                targets
                    .iter()
                    .any(|t| self.resolve(t, source).as_deref() == Some(path))
            })
            .map(|(source, _)| source.clone())
            .collect()
    }
}

/// `text` with fenced code blocks, inline code and `%%` comments replaced by spaces.
fn blank_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => {
                fence = Some(m);
                out.push('\n');
                continue;
            }
            (Some(open), Some(m)) if open == m => {
                fence = None;
                out.push('\n');
                continue;
            }
            (Some(_), _) => {
                out.push('\n');
                continue;
            }
            _ => {}
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else if in_code && c != '\n' {
                out.push(' ');
            } else {
                out.push(c);
            }
        }
    }
    let mut cleaned = String::new();
    for (i, part) in out.split("%%").enumerate() {
        if i % 2 == 0 {
            cleaned.push_str(part);
        }
    }
    cleaned
}

/// The targets (file part, before `#` and `|`) of every wikilink, embed and local markdown
/// link in `text`.
fn scan_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("[[") {
        let after = &rest[i + 2..];
        let Some(end) = after.find("]]") else { break };
        let inner = &after[..end];
        let path = inner
            .split('|')
            .next()
            .unwrap_or("")
            .split('#')
            .next()
            .unwrap_or("");
        let path = path.trim_end_matches('\\').trim();
        out.push(path.to_owned());
        rest = &after[end + 2..];
    }
    let mut i = 0;
    while let Some(off) = text[i..].find("](") {
        let start = i + off + 2;
        let is_wiki = text[..i + off].ends_with(']');
        i = start;
        if is_wiki {
            continue;
        }
        let Some(close) = text[start..].find(')') else {
            break;
        };
        let mut dest = text[start..start + close].trim();
        if let Some(stripped) = dest.strip_prefix('<') {
            dest = stripped.split('>').next().unwrap_or("");
        } else {
            dest = dest.split(' ').next().unwrap_or("");
        }
        let scheme = dest.split_once(':').is_some_and(|(s, _)| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        });
        if scheme {
            continue;
        }
        let file = dest.split('#').next().unwrap_or("");
        out.push(percent_decode(file));
    }
    out
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        if bytes[i] == b'%'
            && let Some(v) = hex
        {
            out.push(v);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
