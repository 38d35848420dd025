//! Vault-relative paths: validation and the small amount of path arithmetic links need.
//! Paths use `/` separators and never start with `/`; the vault root is the empty folder `""`.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::PathError;
use super::fold::fold;

/// Checks that `path` is a vault-relative file path, by the same rules as the ACL
/// ([`crate::acl::validate_path`]): no leading `/`, no empty, `.` or `..` segments, no NUL,
/// control characters or backslashes.
pub fn validate_vault_path(path: &str) -> Result<(), PathError> {
    crate::acl::validate_path(path)
        .map(drop)
        .map_err(|problem| PathError {
            path: String::from(path),
            problem,
        })
}

/// The folder holding `path` (`""` for a file at the vault root), like Obsidian's `dirname`.
pub(crate) fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// The last segment of `path`.
pub(crate) fn file_name(path: &str) -> &str {
    path.rfind('/').map_or(path, |i| &path[i + 1..])
}

/// `path` without a trailing `.md` (any case), or `path` itself.
pub(crate) fn strip_md(path: &str) -> &str {
    let cut = path.len().saturating_sub(3);
    match (path.get(..cut), path.get(cut..)) {
        (Some(stem), Some(ext)) if ext.eq_ignore_ascii_case(".md") => stem,
        _ => path,
    }
}

/// The path from folder `from` to file `to`, both vault-relative, as `../` steps followed by
/// the rest of `to`. Folder names are compared by their [`fold`] keys, the way the resolver
/// compares them. Returns the number of `../` steps and the text.
pub(crate) fn relative_path(from: &str, to: &str) -> (usize, String) {
    let from_parts: Vec<&str> = if from.is_empty() {
        Vec::new()
    } else {
        from.split('/').collect()
    };
    let to_parts: Vec<&str> = to.split('/').collect();
    let to_dirs = &to_parts[..to_parts.len() - 1];
    let common = from_parts
        .iter()
        .zip(to_dirs)
        .take_while(|(a, b)| fold(a) == fold(b))
        .count();
    let ups = from_parts.len() - common;
    let mut out = String::new();
    for _ in 0..ups {
        out.push_str("../");
    }
    out.push_str(&to_parts[common..].join("/"));
    (ups, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validation_reasons() {
        use crate::acl::PathError as AclPathError;
        let problem = |p: &str| validate_vault_path(p).err().map(|e| e.problem);
        assert_eq!(problem("a/b.md"), None);
        assert_eq!(problem("a b/ü 😀.md"), None);
        assert_eq!(problem(""), Some(AclPathError::Empty));
        assert_eq!(problem("/a.md"), Some(AclPathError::Absolute));
        assert_eq!(problem("a/"), Some(AclPathError::EmptySegment));
        assert_eq!(problem("a//b.md"), Some(AclPathError::EmptySegment));
        assert_eq!(problem("a/../b.md"), Some(AclPathError::DotDotSegment));
        assert_eq!(problem("./b.md"), Some(AclPathError::DotSegment));
        assert_eq!(problem("a\0.md"), Some(AclPathError::Nul));
        // Dots inside names are fine.
        assert_eq!(problem("..hidden/.x.md"), None);
    }

    #[test]
    fn parent_and_file_name() {
        assert_eq!(parent("a/b/c.md"), "a/b");
        assert_eq!(parent("c.md"), "");
        assert_eq!(file_name("a/b/c.md"), "c.md");
        assert_eq!(file_name("c.md"), "c.md");
    }

    #[test]
    fn strip_md_any_case() {
        assert_eq!(strip_md("a/Note.md"), "a/Note");
        assert_eq!(strip_md("Note.MD"), "Note");
        assert_eq!(strip_md("img.png"), "img.png");
        assert_eq!(strip_md("md"), "md");
        assert_eq!(strip_md("日.md"), "日");
        assert_eq!(strip_md("日本"), "日本");
    }

    #[test]
    fn relative_paths() {
        assert_eq!(relative_path("a/b", "a/b/N.md"), (0, String::from("N.md")));
        assert_eq!(
            relative_path("a/b", "a/c/N.md"),
            (1, String::from("../c/N.md"))
        );
        assert_eq!(relative_path("", "x/N.md"), (0, String::from("x/N.md")));
        assert_eq!(
            relative_path("a/b", "N.md"),
            (2, String::from("../../N.md"))
        );
        assert_eq!(
            relative_path("A/B", "a/b/c/N.md"),
            (0, String::from("c/N.md"))
        );
    }
}
