//! Excluded files: the vault paths that listings, search results, counts and the other
//! ranked or listed results leave out, from Obsidian's own "Excluded files" setting
//! (Settings > Files and links > Excluded files, `userIgnoreFilters` in `.obsidian/app.json`)
//! and from the server's `index.exclude` globs.
//!
//! What Obsidian does with the setting (its help, `User interface/Settings.md`: excluded
//! files "will be hidden in Search, Graph View, and Unlinked Mentions, and less noticeable
//! in Quick Switcher and link suggestions"), and how an entry reads (the setting's dialog,
//! and the plugins that read `userIgnoreFilters` the same way Obsidian's
//! `MetadataCache.isUserIgnored` does): an entry written `/…/` (starting and ending with a
//! slash, longer than `//`) is a JavaScript regular expression, tested against the
//! vault-relative path (found anywhere in it, as `RegExp.test`); any other entry is a path
//! prefix, compared exactly (`Archive/` excludes the folder's content, `Archive` also
//! `Archive 2024.md`, `Inbox/draft.md` one file). Obsidian's source is not public; the
//! matching was checked against those descriptions, not against its code. Regular
//! expressions run on Rust's `regex` crate (linear time): the JavaScript features it lacks
//! (look-around, back-references) make an entry invalid, skipped with a warning.
//!
//! An `index.exclude` glob (engine-core's glob syntax) excludes the paths it matches and
//! everything under a folder it matches (`Archive` and `Archive/**` both exclude the folder's
//! content).
//!
//! Excluded files are not hidden from a path named directly (`read_note` opens one, as
//! Obsidian does): this is not an access control. The settings file is read again on every
//! call that asks ([`ExclusionCache::current`]) when its modification time or length changed,
//! so a change to it applies to the next call, without a restart; a malformed file or entry is logged once and skipped, never fatal.

use std::sync::{Arc, Mutex, PoisonError};

use engine_core::acl::Glob;
use regex::Regex;
use serde_json::Value;

use super::handle::Vault;
use super::listing::{ChangeStamp, racy_since};
use super::settings::ObsidianSetting;

/// The key of Obsidian's "Excluded files" list in `.obsidian/app.json`.
pub const USER_IGNORE_FILTERS: &str = "userIgnoreFilters";

/// One compiled "Excluded files" entry.
#[derive(Debug)]
enum Filter {
    /// A path prefix.
    Prefix(String),
    /// A `/…/` regular expression.
    Pattern(Regex),
}

/// The compiled exclusions of one vault at one moment.
#[derive(Debug, Default)]
pub struct Exclusions {
    filters: Vec<Filter>,
    globs: Vec<Glob>,
    fingerprint: String,
}

impl Exclusions {
    /// Compiles Obsidian's entries `filters` and the `globs`; returns the exclusions and a
    /// warning for each entry that was skipped (an invalid regular expression, an empty
    /// entry).
    pub fn compile(filters: &[String], globs: &[Glob]) -> (Exclusions, Vec<String>) {
        let mut warnings = Vec::new();
        let mut compiled = Vec::new();
        for entry in filters {
            match compile_entry(entry) {
                Ok(Some(filter)) => compiled.push(filter),
                Ok(None) => {}
                Err(reason) => warnings.push(format!(
                    "the Excluded files entry {entry:?} of .obsidian/app.json is skipped: {reason}"
                )),
            }
        }
        let mut fingerprint = filters.join("\n");
        for glob in globs {
            fingerprint.push_str("\nglob:");
            fingerprint.push_str(glob.as_str());
        }
        let exclusions = Exclusions {
            filters: compiled,
            globs: globs.to_vec(),
            fingerprint,
        };
        (exclusions, warnings)
    }

    /// Whether `path` (vault-relative) is excluded.
    pub fn is_excluded(&self, path: &str) -> bool {
        self.filters.iter().any(|filter| match filter {
            Filter::Prefix(prefix) => path.starts_with(prefix.as_str()),
            Filter::Pattern(regex) => regex.is_match(path),
        }) || self.globs.iter().any(|glob| glob_excludes(glob, path))
    }

    /// Whether nothing is excluded.
    pub fn is_empty(&self) -> bool {
        self.filters.is_empty() && self.globs.is_empty()
    }

    /// A text that differs whenever what is excluded may differ (for keys of cached views).
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

/// One entry compiled: `None` for an empty entry (Obsidian ignores it too).
fn compile_entry(entry: &str) -> Result<Option<Filter>, String> {
    if entry.is_empty() {
        return Ok(None);
    }
    if entry.len() > 2 && entry.starts_with('/') && entry.ends_with('/') {
        let source = &entry[1..entry.len() - 1];
        return Regex::new(source)
            .map(|regex| Some(Filter::Pattern(regex)))
            .map_err(|error| format!("not a regular expression this server reads ({error})"));
    }
    Ok(Some(Filter::Prefix(entry.to_owned())))
}

/// Whether `glob` matches `path` or one of the folders it is in.
fn glob_excludes(glob: &Glob, path: &str) -> bool {
    glob.matches(path)
        || path
            .match_indices('/')
            .any(|(end, _)| glob.matches(&path[..end]))
}

/// The entries of Obsidian's "Excluded files" in the parsed `app.json`, and a warning for
/// what is not a list of strings (the strings in it are still used).
pub fn user_ignore_filters(app: &Value) -> (Vec<String>, Option<String>) {
    match app.get(USER_IGNORE_FILTERS) {
        None | Some(Value::Null) => (Vec::new(), None),
        Some(Value::Array(items)) => {
            let texts: Vec<String> = items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_owned))
                .collect();
            let warning = (texts.len() < items.len()).then(|| {
                format!(
                    "{USER_IGNORE_FILTERS} of .obsidian/app.json holds entries that are not \
                     strings; they are skipped"
                )
            });
            (texts, warning)
        }
        Some(_) => (
            Vec::new(),
            Some(format!(
                "{USER_IGNORE_FILTERS} of .obsidian/app.json is not a list; it is skipped"
            )),
        ),
    }
}

/// What one reading of the settings file found: the entries, or why none could be read.
type Reading = Result<Vec<String>, String>;

/// The exclusions of one vault, kept compiled until the settings file's entries change.
#[derive(Debug)]
pub struct ExclusionCache {
    /// Whether Obsidian's "Excluded files" are honoured (`index.obsidianExcludedFiles`).
    obsidian: bool,
    /// The `index.exclude` globs.
    globs: Vec<Glob>,
    /// The last reading.
    last: Mutex<Option<LastReading>>,
}

/// One reading of the settings file and what it compiled to.
#[derive(Debug)]
struct LastReading {
    /// The file's stamp when it was read (`None`: absent).
    stamp: Option<ChangeStamp>,
    /// What it held.
    reading: Reading,
    /// What that compiled to.
    exclusions: Arc<Exclusions>,
}

impl ExclusionCache {
    /// A cache for a vault honouring Obsidian's setting when `obsidian`, and `globs`.
    pub fn new(obsidian: bool, globs: Vec<Glob>) -> ExclusionCache {
        ExclusionCache {
            obsidian,
            globs,
            last: Mutex::new(None),
        }
    }

    /// The exclusions of `vault` now: its settings file is read again only when its stamp
    /// changed (or its last change is too recent to trust the stamp), and compiled again
    /// only when its entries changed; what could not be read or compiled is logged once per
    /// change and skipped.
    pub fn current(&self, vault: &Vault) -> Arc<Exclusions> {
        let stamp = if self.obsidian {
            vault.setting_stamp(ObsidianSetting::App)
        } else {
            None
        };
        let mut last = self.last.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(seen) = last.as_ref()
            && seen.stamp == stamp
            && stamp.is_none_or(|stamp| stamp.settled(racy_since()))
        {
            return Arc::clone(&seen.exclusions);
        }
        let reading = if self.obsidian {
            read_filters(vault)
        } else {
            Ok(Vec::new())
        };
        if let Some(seen) = last.as_mut()
            && seen.reading == reading
        {
            seen.stamp = stamp;
            return Arc::clone(&seen.exclusions);
        }
        let filters = match &reading {
            Ok(filters) => filters.as_slice(),
            Err(reason) => {
                tracing::warn!(vault = %vault.root().display(), "{reason}");
                &[]
            }
        };
        let (exclusions, warnings) = Exclusions::compile(filters, &self.globs);
        for warning in warnings {
            tracing::warn!(vault = %vault.root().display(), "{warning}");
        }
        let exclusions = Arc::new(exclusions);
        *last = Some(LastReading {
            stamp,
            reading,
            exclusions: Arc::clone(&exclusions),
        });
        exclusions
    }
}

/// Obsidian's entries as `app.json` holds them now (none when it has no such file).
fn read_filters(vault: &Vault) -> Reading {
    let app = vault
        .read_setting(ObsidianSetting::App)
        .map_err(|error| format!("Excluded files are not applied: {error}"))?;
    let Some(app) = app else {
        return Ok(Vec::new());
    };
    let (filters, warning) = user_ignore_filters(&app);
    if let Some(warning) = warning {
        tracing::warn!(vault = %vault.root().display(), "{warning}");
    }
    Ok(filters)
}

#[cfg(test)]
mod tests {
    use engine_core::acl::CaseMode;
    use serde_json::json;

    use super::*;

    fn excluded(filters: &[&str], globs: &[&str], path: &str) -> bool {
        let filters: Vec<String> = filters.iter().map(|f| (*f).to_owned()).collect();
        let globs: Vec<Glob> = globs
            .iter()
            .map(|g| Glob::compile(g, CaseMode::Sensitive).unwrap())
            .collect();
        Exclusions::compile(&filters, &globs).0.is_excluded(path)
    }

    #[test]
    fn prefixes_regexes_and_globs() {
        assert!(excluded(&["Archive/"], &[], "Archive/old.md"));
        assert!(!excluded(&["Archive/"], &[], "Archive.md"));
        assert!(excluded(&["Archive"], &[], "Archive 2024.md"));
        assert!(!excluded(&["archive/"], &[], "Archive/old.md"));
        assert!(excluded(&["Inbox/draft.md"], &[], "Inbox/draft.md"));
        assert!(excluded(
            &["/\\.excalidraw\\.md$/"],
            &[],
            "a/b.excalidraw.md"
        ));
        assert!(!excluded(&["/^Temp/"], &[], "Notes/Temp.md"));
        assert!(excluded(&[], &["Private"], "Private/a/b.md"));
        assert!(excluded(&[], &["**/*.tmp.md"], "x/y.tmp.md"));
        assert!(!excluded(&[], &["Private"], "Privately.md"));
        assert!(!excluded(&["", "/"], &[], "a.md"));
    }

    #[test]
    fn an_invalid_regex_is_skipped_with_a_warning_and_the_rest_applies() {
        let filters = vec!["/(?<=a)b/".to_owned(), "Old/".to_owned()];
        let (exclusions, warnings) = Exclusions::compile(&filters, &[]);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(exclusions.is_excluded("Old/x.md"));
        assert!(!exclusions.is_excluded("ab.md"));
    }

    #[test]
    fn reads_the_list_and_warns_on_other_shapes() {
        let (filters, warning) = user_ignore_filters(&json!({"userIgnoreFilters": ["a/", 3]}));
        assert_eq!(filters, ["a/"]);
        assert!(warning.is_some());
        let (filters, warning) = user_ignore_filters(&json!({"userIgnoreFilters": "a/"}));
        assert!(filters.is_empty() && warning.is_some());
        assert_eq!(user_ignore_filters(&json!({})), (Vec::new(), None));
    }
}
