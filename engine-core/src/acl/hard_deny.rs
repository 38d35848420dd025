//! The hard-deny list: control directories no configuration can open.
//!
//! `.obsidian/**` (Obsidian's config, where plugin settings keep API keys and sync
//! passwords), `.git/**` and `.trash/**` are denied for every operation whatever the ACL
//! says, except exactly `.obsidian/bookmarks.json` and `.obsidian/workspaces.json` (compared
//! byte for byte in NFC: `.Obsidian/bookmarks.json` is not exempt).
//!
//! A path is denied when any of its segments names a control directory, compared after
//! Unicode case folding (`.OBSIDIAN`, `.Git`, `.traſh`) and the aliasing of Windows
//! filesystems, where `name.`, `name ` and `name::$DATA` address `name` and `GIT~1` is the
//! short name of `.git`. This is stricter than the original in three ways, each only ever
//! denying more: nested control directories are denied too (a vault or repository inside the
//! vault), `.obsidian` and `.trash` match as prefixes (custom config folders such as
//! `.obsidian-mobile`, the server's own `.obsidian-tc` cache which indexes every note, and
//! freedesktop `.Trash-1000` folders), and the Windows aliases above.

use crate::acl::casefold::fold_char;
use crate::acl::path::to_nfc;

/// The paths under `.obsidian` that stay reachable, exactly as written.
pub const HARD_DENY_EXEMPT: [&str; 2] = [".obsidian/bookmarks.json", ".obsidian/workspaces.json"];

/// Whether `path` (vault-relative, compared in NFC) is in a control directory and not exempt.
pub fn is_hard_denied(path: &str) -> bool {
    let path = to_nfc(path);
    if HARD_DENY_EXEMPT.contains(&path.as_ref()) {
        return false;
    }
    path.split('/').any(names_control_dir)
}

fn names_control_dir(segment: &str) -> bool {
    let name = segment.split(':').next().unwrap_or(segment);
    let name = name.trim_end_matches(['.', ' ']);
    let folded = || name.chars().map(fold_char);
    // Every control name starts with `.`, `g`, `o` or `t` (short names): a quick first test.
    if !matches!(folded().next(), Some('.' | 'g' | 'o' | 't')) {
        return false;
    }
    folded().eq(".git".chars())
        || strip_folded_prefix(folded(), ".obsidian").is_some()
        || strip_folded_prefix(folded(), ".trash").is_some()
        || ["git~", "obsidi~", "trash~"]
            .iter()
            .any(|stem| is_short_name(folded(), stem))
}

/// What follows `prefix` in the folded name, if the name starts with it.
fn strip_folded_prefix<I: Iterator<Item = char>>(mut folded: I, prefix: &str) -> Option<I> {
    prefix
        .chars()
        .all(|p| folded.next() == Some(p))
        .then_some(folded)
}

/// Whether a folded name is a DOS 8.3 short name `stem` + digits (`GIT~1`, `OBSIDI~2`).
fn is_short_name(folded: impl Iterator<Item = char>, stem: &str) -> bool {
    strip_folded_prefix(folded, stem).is_some_and(|digits| {
        let mut digits = digits.peekable();
        digits.peek().is_some() && digits.all(|c| c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denies_control_directories_under_any_case() {
        for path in [
            ".obsidian",
            ".obsidian/app.json",
            ".obsidian/plugins/x/data.json",
            ".OBSIDIAN/app.json",
            ".Obsidian/bookmarks.json",
            ".git/config",
            ".Git/config",
            ".GIT",
            ".trash/old.md",
            ".TRASH/old.md",
            ".tra\u{17f}h/old.md",
            ".g\u{131}t/config",
        ] {
            assert!(is_hard_denied(path), "{path}");
        }
    }

    #[test]
    fn denies_windows_aliases_and_nested_and_prefixed_dirs() {
        for path in [
            ".obsidian./app.json",
            ".obsidian /app.json",
            ".obsidian. . ./app.json",
            ".git::$INDEX_ALLOCATION/config",
            "GIT~1/config",
            "obsidi~1/app.json",
            "TRASH~12/x.md",
            "sub/vault/.obsidian/app.json",
            "projects/repo/.git/HEAD",
            ".obsidian-tc/cache.db",
            ".obsidian-mobile/app.json",
            ".Trash-1000/files/x.md",
        ] {
            assert!(is_hard_denied(path), "{path}");
        }
    }

    #[test]
    fn exempts_exactly_two_files() {
        assert!(!is_hard_denied(".obsidian/bookmarks.json"));
        assert!(!is_hard_denied(".obsidian/workspaces.json"));
        assert!(is_hard_denied(".obsidian/bookmarks.json.bak"));
        assert!(is_hard_denied(".obsidian./bookmarks.json"));
        assert!(is_hard_denied("sub/.obsidian/bookmarks.json"));
    }

    #[test]
    fn leaves_ordinary_and_lookalike_names_alone() {
        for path in [
            "notes/git.md",
            ".github/workflows/ci.yml",
            ".gitignore",
            "obsidian/notes.md",
            "my.obsidian/x",
            "\u{ff0e}obsidian/app.json",
            ".g\u{130}t/config",
            "git~/x",
            "git~1a/x",
            "trash/x.md",
        ] {
            assert!(!is_hard_denied(path), "{path}");
        }
    }
}
