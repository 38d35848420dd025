//! The data sets: BEIR SciFact (read by engine-core's loader, then written out as a vault),
//! the obsidian-help golden set, the notes of a vault folder, and seeded latency queries.

use std::path::{Path, PathBuf};

use serde::Deserialize;

#[path = "../../engine-core/examples/scifact/mod.rs"]
mod scifact_files;

pub use scifact_files::{Data as SciFact, load as load_scifact};

/// Writes one note per SciFact document into `vault`: `<doc id>.md` holding
/// `# <title>\n\n<text>`.
pub fn materialise_scifact(data: &SciFact, vault: &Path) -> Result<(), String> {
    std::fs::create_dir_all(vault).map_err(|e| format!("{}: {e}", vault.display()))?;
    for (id, title, text) in &data.corpus {
        if id.is_empty() || id.contains(['/', '\\', '.']) {
            return Err(format!("SciFact doc id {id:?} cannot be a note name"));
        }
        let path = vault.join(format!("{id}.md"));
        let note = format!("# {title}\n\n{text}");
        // Left alone when already written, so a kept cache stays valid.
        if std::fs::read_to_string(&path).is_ok_and(|old| old == note) {
            continue;
        }
        std::fs::write(&path, note).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The SciFact document id of a note path the product returned (`<id>.md`).
pub fn scifact_id(path: &str) -> String {
    path.strip_suffix(".md").unwrap_or(path).to_owned()
}

/// One query of the golden set.
#[derive(Debug, Clone, Deserialize)]
pub struct GoldenQuery {
    /// The query id (`q001`).
    pub id: String,
    /// The query text.
    pub query: String,
    /// Note paths that answer it (gain 1.0).
    pub relevant_paths: Vec<String>,
    /// Note paths that partly answer it (gain 0.5).
    #[serde(default)]
    pub partial_paths: Vec<String>,
    /// `keyword`, `conceptual`, `multilingual` or `syntax` (golden set); the tuning set adds
    /// `mention`, `non_english` and `title`.
    pub category: String,
    /// The vault's folder under `vaults/` (tuning set only; the golden set is all
    /// obsidian-help-en).
    #[serde(default)]
    pub vault: String,
}

/// Reads the golden set (a JSON array of queries).
pub fn load_golden(path: &Path) -> Result<Vec<GoldenQuery>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A graded query asked again in another language: it keeps its source's vault and grades.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Translation {
    id: String,
    /// The id of the graded query translated.
    source: String,
    /// The language asked in, the query's category.
    language: String,
    query: String,
}

/// One entry of a tuning set: a graded query, or a translation of one.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum TuningEntry {
    Translation(Translation),
    Graded(GoldenQuery),
}

/// Reads a tuning set: graded queries, or translations of the graded queries of `originals`
/// (bench/tuning/vault-queries.json), which take their source's vault and grades, their
/// language as category.
pub fn load_tuning(path: &Path, originals: &Path) -> Result<Vec<GoldenQuery>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let entries: Vec<TuningEntry> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut sources = None;
    entries
        .into_iter()
        .map(|entry| match entry {
            TuningEntry::Graded(query) => Ok(query),
            TuningEntry::Translation(t) => {
                if sources.is_none() {
                    sources = Some(load_golden(originals)?);
                }
                let source = sources
                    .iter()
                    .flatten()
                    .find(|q| q.id == t.source)
                    .ok_or_else(|| {
                        format!("{}: {}: no query {}", path.display(), t.id, t.source)
                    })?;
                Ok(GoldenQuery {
                    id: t.id,
                    query: t.query,
                    category: t.language,
                    ..source.clone()
                })
            }
        })
        .collect()
}

/// One markdown note of a vault folder.
pub struct Note {
    /// Vault-relative path with `/` separators.
    pub path: String,
    /// The file name without `.md`.
    pub title: String,
    /// The whole file.
    pub text: String,
}

/// Every `.md` note under `vault`, sorted by path; folders starting with `.` (`.obsidian`,
/// `.trash`, caches) and files that are not UTF-8 are left out.
pub fn vault_notes(vault: &Path) -> Result<Vec<Note>, String> {
    let mut notes = Vec::new();
    let mut folders: Vec<PathBuf> = vec![vault.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", folder.display()))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let kind = entry
                .file_type()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if kind.is_dir() {
                folders.push(path);
            } else if let Some(title) = name.strip_suffix(".md") {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let relative = path
                    .strip_prefix(vault)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                notes.push(Note {
                    path: parts.join("/"),
                    title: title.to_owned(),
                    text,
                });
            }
        }
    }
    notes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(notes)
}

/// SplitMix64: a small seeded generator, so the query set is the same on every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The words of a heading line (`## Some heading` -> `Some heading`), `None` for other lines.
fn heading_words(line: &str) -> Option<Vec<&str>> {
    let rest = line.trim_start_matches('#');
    if rest.len() == line.len() || !rest.starts_with(' ') {
        return None;
    }
    let words: Vec<&str> = rest
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 2)
        .collect();
    (!words.is_empty()).then_some(words)
}

/// `count` queries drawn with `seed` from `notes`: alternately a note's title, and one to three
/// consecutive words of one of a note's headings.
pub fn latency_queries(notes: &[Note], count: usize, seed: u64) -> Vec<String> {
    let mut rng = SplitMix(seed);
    let mut queries = Vec::with_capacity(count);
    let mut attempts = 0;
    while queries.len() < count && !notes.is_empty() && attempts < count * 100 {
        attempts += 1;
        let note = &notes[rng.below(notes.len())];
        if queries.len() % 2 == 0 {
            queries.push(note.title.clone());
            continue;
        }
        let headings: Vec<Vec<&str>> = note.text.lines().filter_map(heading_words).collect();
        if headings.is_empty() {
            continue;
        }
        let words = &headings[rng.below(headings.len())];
        let take = 1 + rng.below(3.min(words.len()));
        let start = rng.below(words.len() + 1 - take);
        queries.push(words[start..start + take].join(" "));
    }
    queries
}
