//! Link resolution over a list of vault paths, as Obsidian's
//! `MetadataCache.getLinkpathDest` / `getFirstLinkpathDest` resolve a linkpath.
//!
//! The rules, in Obsidian's order (read from the shipped `app.js` of Obsidian 1.x and
//! checked against behaviour observed on Obsidian 1.13.7):
//!
//! 1. An empty linkpath (`[[#Heading]]`) is the source note itself.
//! 2. Candidates are the files whose *name* matches the linkpath's last segment,
//!    case-insensitively. If that segment contains a dot it is first tried as a full file
//!    name (`[[image.png]]`, `[[Note.md]]`); if no file has that name, or the segment has no
//!    dot, `.md` is appended (`[[Note]]`, `[[v1.2 notes]]`, `[[drawing.excalidraw]]` →
//!    `drawing.excalidraw.md`). So `.canvas`, `.base`, images and PDFs need their extension,
//!    and a file without an extension can never be linked.
//! 3. A bare name (no `/`) with exactly one candidate resolves to it.
//! 4. `./x` and `../x` are joined to the source note's folder; an exact path match wins.
//! 5. A leading `/` is dropped; a candidate whose whole vault path equals the linkpath wins
//!    (so `[[Note]]` is the root `Note.md` whenever one exists).
//! 6. A linkpath that started with `/` resolves only by that exact match.
//! 7. Otherwise every candidate whose path ends with the linkpath matches. Candidates whose
//!    path starts with the source note's folder come first, then the rest; each group is
//!    ordered by path length (JavaScript string length), shortest first. Obsidian opens the
//!    first; several matches are reported as ambiguous.
//!
//! Comparisons are case-insensitive (full Unicode lowercase) and, beyond Obsidian,
//! insensitive to Unicode normalization (NFC/NFD). Two deliberate choices where Obsidian
//! leaves the outcome open or unsafe: equal-length candidates are ordered by their path
//! (Obsidian keeps the order it loaded files in), and a relative link that climbs above the
//! vault root is unresolved (Obsidian silently stops climbing at the root).
//!
//! Two Obsidian quirks are kept on purpose, because they decide where a link points: the
//! suffix test of rule 7 and the folder test that orders its groups compare raw string
//! prefixes and suffixes, not whole segments (`[[b/Note]]` matches `ab/Note.md`, and a note
//! in `a/` prefers `ab/Note.md` like its own folder).

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use hashbrown::HashMap;

use super::error::PathError;
use super::fold::{fold, js_length};
use super::path::{file_name, parent, validate_vault_path};

/// Where a link points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution<'a> {
    /// Exactly one file matches.
    Resolved(&'a str),
    /// Several files match; in Obsidian's order, so the first is the one Obsidian opens.
    /// Always holds at least two paths.
    Ambiguous(Vec<&'a str>),
    /// No file matches (a "not created yet" link in Obsidian; not an error).
    Unresolved,
}

impl<'a> Resolution<'a> {
    /// The file Obsidian opens for this link, if any.
    pub fn first(&self) -> Option<&'a str> {
        match self {
            Resolution::Resolved(p) => Some(p),
            Resolution::Ambiguous(all) => all.first().copied(),
            Resolution::Unresolved => None,
        }
    }
}

/// One file of the vault with its precomputed comparison key.
#[derive(Debug, Clone)]
struct VaultFile {
    /// The path exactly as given.
    path: String,
    /// [`fold`] of the path.
    key: String,
    /// JavaScript length of the path, Obsidian's tie-breaker.
    js_len: usize,
}

/// An index of vault paths, built once, that resolves links in time proportional to the
/// number of files sharing the link's file name (not to the size of the vault).
#[derive(Debug, Clone)]
pub struct LinkResolver {
    /// Every file, sorted by path, without duplicates.
    files: Vec<VaultFile>,
    /// Folded file name → indices into `files`, ascending.
    by_name: HashMap<String, Vec<usize>>,
}

impl LinkResolver {
    /// Indexes `paths` (vault-relative, `/`-separated; duplicates are ignored).
    pub fn new<I, S>(paths: I) -> Result<Self, PathError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut sorted: Vec<String> = Vec::new();
        for p in paths {
            let p = p.as_ref();
            validate_vault_path(p)?;
            sorted.push(p.to_owned());
        }
        sorted.sort_unstable();
        sorted.dedup();
        let files: Vec<VaultFile> = sorted
            .into_iter()
            .map(|path| VaultFile {
                key: fold(&path),
                js_len: js_length(&path),
                path,
            })
            .collect();
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, f) in files.iter().enumerate() {
            by_name
                .entry(file_name(&f.key).to_owned())
                .or_default()
                .push(i);
        }
        Ok(LinkResolver { files, by_name })
    }

    /// Number of distinct files indexed.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is indexed.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The indexed path equal to `path`: exactly if present, else up to case and Unicode
    /// normalization (the first in path order).
    pub fn find(&self, path: &str) -> Option<&str> {
        let key = fold(path);
        let same_name = self.by_name.get(file_name(&key))?;
        let exact = same_name.iter().find(|&&i| self.files[i].path == path);
        exact
            .or_else(|| same_name.iter().find(|&&i| self.files[i].key == key))
            .map(|&i| self.files[i].path.as_str())
    }

    /// Resolves `linkpath` (the part of a link before any `#subpath`, already trimmed and,
    /// for markdown links, percent-decoded) written in the note at `source`.
    pub fn resolve(&self, linkpath: &str, source: &str) -> Resolution<'_> {
        if linkpath.is_empty() {
            return self
                .find(source)
                .map_or(Resolution::Unresolved, Resolution::Resolved);
        }
        let mut wanted = fold(linkpath);
        let mut candidates = None;
        if file_name(&wanted).contains('.') {
            candidates = self.by_name.get(file_name(&wanted));
        }
        if candidates.is_none() {
            // Folded together, as JavaScript lowercases `linkpath + ".md"` (this matters for
            // the final-sigma rule: `Σ` before `.md` is not word-final).
            wanted = fold(&[linkpath, ".md"].concat());
            candidates = self.by_name.get(file_name(&wanted));
        }
        let Some(candidates) = candidates else {
            return Resolution::Unresolved;
        };
        if !wanted.contains('/') && candidates.len() == 1 {
            return Resolution::Resolved(&self.files[candidates[0]].path);
        }
        let mut folder = fold(parent(source));
        if wanted.starts_with("./") || wanted.starts_with("../") {
            let Some((joined, joined_folder)) = join_relative(&wanted, &folder) else {
                return Resolution::Unresolved;
            };
            if let Some(hit) = self.exact(candidates, &joined) {
                return Resolution::Resolved(hit);
            }
            wanted = joined;
            folder = joined_folder;
        }
        let wanted = wanted.strip_prefix('/').unwrap_or(&wanted);
        if let Some(hit) = self.exact(candidates, wanted) {
            return Resolution::Resolved(hit);
        }
        if linkpath.starts_with('/') {
            return Resolution::Unresolved;
        }
        let (mut near, mut far): (Vec<&VaultFile>, Vec<&VaultFile>) = candidates
            .iter()
            .map(|&i| &self.files[i])
            .filter(|f| f.key.ends_with(wanted))
            .partition(|f| f.key.starts_with(folder.as_str()));
        let by_length = |a: &&VaultFile, b: &&VaultFile| {
            a.js_len.cmp(&b.js_len).then_with(|| a.path.cmp(&b.path))
        };
        near.sort_by(by_length);
        far.sort_by(by_length);
        let mut all: Vec<&str> = near
            .into_iter()
            .chain(far)
            .map(|f| f.path.as_str())
            .collect();
        match all.len() {
            0 => Resolution::Unresolved,
            1 => Resolution::Resolved(all.remove(0)),
            _ => Resolution::Ambiguous(all),
        }
    }

    /// The first candidate whose whole folded path is `key`.
    fn exact(&self, candidates: &[usize], key: &str) -> Option<&str> {
        candidates
            .iter()
            .map(|&i| &self.files[i])
            .find(|f| f.key == key)
            .map(|f| f.path.as_str())
    }
}

/// Joins a folded `./` or `../` linkpath to the folded source folder, as Obsidian does:
/// returns the joined path and the folder it was joined to (with a trailing `/` unless it is
/// the root), or `None` when `../` climbs above the vault root.
pub(crate) fn join_relative(wanted: &str, folder: &str) -> Option<(String, String)> {
    let wanted = wanted
        .strip_prefix("./")
        .filter(|w| w.starts_with("../"))
        .unwrap_or(wanted);
    let mut folder = folder.to_owned();
    let rest = if let Some(rest) = wanted.strip_prefix("./") {
        rest
    } else {
        let mut rest = wanted;
        while let Some(r) = rest.strip_prefix("../") {
            if folder.is_empty() {
                return None;
            }
            folder = parent(&folder).to_owned();
            rest = r;
        }
        rest
    };
    if !folder.is_empty() {
        folder.push('/');
    }
    let mut joined = folder.clone();
    joined.push_str(rest);
    Some((joined, folder))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolver(paths: &[&str]) -> LinkResolver {
        LinkResolver::new(paths.iter().copied()).unwrap()
    }

    #[test]
    fn bare_unique_name_resolves_anywhere() {
        let r = resolver(&["deep/folder/Note.md", "Other.md"]);
        assert_eq!(
            r.resolve("Note", "x/y.md"),
            Resolution::Resolved("deep/folder/Note.md")
        );
        assert_eq!(
            r.resolve("note", ""),
            Resolution::Resolved("deep/folder/Note.md")
        );
        assert_eq!(
            r.resolve("NOTE.md", "a.md"),
            Resolution::Resolved("deep/folder/Note.md")
        );
    }

    #[test]
    fn root_file_wins_then_own_folder_then_shortest() {
        let r = resolver(&["Note.md", "zzzz/Note.md", "a/b/Note.md", "b/Note.md"]);
        assert_eq!(r.resolve("Note", "zzzz/src.md").first(), Some("Note.md"));
        assert_eq!(
            r.resolve("Note", "zzzz/src.md"),
            Resolution::Resolved("Note.md")
        );
        let r = resolver(&["zzzz/Note.md", "a/b/Note.md", "b/Note.md"]);
        assert_eq!(
            r.resolve("Note", "zzzz/src.md"),
            Resolution::Ambiguous(alloc::vec!["zzzz/Note.md", "b/Note.md", "a/b/Note.md"])
        );
        // An ancestor folder earns nothing: only paths starting with the source's own folder.
        assert_eq!(
            r.resolve("Note", "zzzz/deep/src.md").first(),
            Some("b/Note.md")
        );
        let r = resolver(&["zzzz/Note.md", "a/b/Note.md"]);
        assert_eq!(r.resolve("Note", "q/src.md").first(), Some("a/b/Note.md"));
    }

    #[test]
    fn folder_paths_match_by_suffix_and_exact_path() {
        let r = resolver(&["a/b/Note.md", "c/b/Note.md", "b/Note.md"]);
        assert_eq!(
            r.resolve("b/Note", "x.md"),
            Resolution::Resolved("b/Note.md")
        );
        assert_eq!(
            r.resolve("a/b/Note", "x.md"),
            Resolution::Resolved("a/b/Note.md")
        );
        assert_eq!(
            r.resolve("/a/b/Note", "x.md"),
            Resolution::Resolved("a/b/Note.md")
        );
        assert_eq!(
            r.resolve("/b/Note.md", "c/x.md"),
            Resolution::Resolved("b/Note.md")
        );
        let r = resolver(&["a/b/Note.md", "c/b/Note.md"]);
        assert_eq!(r.resolve("/b/Note", "x.md"), Resolution::Unresolved);
        assert_eq!(r.resolve("b/Note", "c/x.md").first(), Some("c/b/Note.md"));
    }

    #[test]
    fn relative_links_join_the_source_folder() {
        let r = resolver(&["a/Note.md", "a/b/Note.md", "Note.md"]);
        assert_eq!(
            r.resolve("./Note", "a/b/x.md"),
            Resolution::Resolved("a/b/Note.md")
        );
        assert_eq!(
            r.resolve("../Note", "a/b/x.md"),
            Resolution::Resolved("a/Note.md")
        );
        assert_eq!(
            r.resolve("../../Note.md", "a/b/x.md"),
            Resolution::Resolved("Note.md")
        );
        assert_eq!(
            r.resolve("./../Note", "a/b/x.md"),
            Resolution::Resolved("a/Note.md")
        );
        assert_eq!(
            r.resolve("../../../Note", "a/b/x.md"),
            Resolution::Unresolved
        );
        assert_eq!(r.resolve("../Note", "x.md"), Resolution::Unresolved);
    }

    #[test]
    fn extensions() {
        let r = resolver(&[
            "img.png",
            "d.excalidraw.md",
            "v1.2 notes.md",
            "c.canvas",
            "c.md",
            "LICENSE",
        ]);
        assert_eq!(
            r.resolve("img.png", "x.md"),
            Resolution::Resolved("img.png")
        );
        assert_eq!(r.resolve("img", "x.md"), Resolution::Unresolved);
        assert_eq!(
            r.resolve("d.excalidraw", "x.md"),
            Resolution::Resolved("d.excalidraw.md")
        );
        assert_eq!(
            r.resolve("v1.2 notes", "x.md"),
            Resolution::Resolved("v1.2 notes.md")
        );
        assert_eq!(r.resolve("c", "x.md"), Resolution::Resolved("c.md"));
        assert_eq!(
            r.resolve("c.canvas", "x.md"),
            Resolution::Resolved("c.canvas")
        );
        assert_eq!(r.resolve("LICENSE", "x.md"), Resolution::Unresolved);
    }

    #[test]
    fn empty_linkpath_is_the_source() {
        let r = resolver(&["a/Src.md"]);
        assert_eq!(r.resolve("", "a/Src.md"), Resolution::Resolved("a/Src.md"));
        assert_eq!(r.resolve("", "a/src.md"), Resolution::Resolved("a/Src.md"));
        assert_eq!(r.resolve("", "b/New.md"), Resolution::Unresolved);
    }

    #[test]
    fn normalization_insensitive() {
        let r = resolver(&["Cafe\u{301}.md"]);
        assert_eq!(
            r.resolve("caf\u{e9}", "x.md"),
            Resolution::Resolved("Cafe\u{301}.md")
        );
    }

    #[test]
    fn final_sigma_folds_like_javascript() {
        let r = resolver(&["ΟΔΟΣ.md"]);
        assert_eq!(r.resolve("ΟΔΟΣ", "x.md"), Resolution::Resolved("ΟΔΟΣ.md"));
        assert_eq!(r.resolve("οδοσ", "x.md"), Resolution::Resolved("ΟΔΟΣ.md"));
    }

    #[test]
    fn rejects_bad_paths_and_dedups() {
        assert!(LinkResolver::new(["a.md", "/b.md"]).is_err());
        assert_eq!(resolver(&["a.md", "a.md"]).len(), 1);
        assert!(resolver(&[]).is_empty());
    }
}
