//! Folder permission presets (none / r / rw / rwd, seed 002 §3) expressed as an [`AclConfig`].
//!
//! Each folder gets one preset; a folder's preset covers the folder itself and everything
//! under it, and a more deeply nested folder overrides its ancestors (`Work: rw` with
//! `Work/HR: none` keeps `Work/HR` out of reach). Everything no listed folder covers, the
//! vault root's files included, gets the `unlisted` preset; the peer's default, and the
//! sensible one, is `r`: a missing entry never grants write or delete.
//!
//! The result uses the three path lists only, with `!` entries for exclusions, listed from
//! the shallowest folder to the deepest so that the last matching entry is the most specific
//! folder. An entry is written only where a folder changes what it inherits, so the lists
//! stay minimal: `unlisted: r` with `Private: none` and `Inbox: rwd` gives
//! `readPaths: ["**", "!Private/**"]`, `writePaths: ["Inbox/**"]`, `deletePaths: ["Inbox/**"]`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::acl::config::AclConfig;
use crate::acl::glob::escape;
use crate::acl::path::{PathError, validate_path};

/// A folder's permission level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FolderPreset {
    /// No access at all.
    None,
    /// Read only.
    R,
    /// Read and write, no delete.
    Rw,
    /// Read, write and delete.
    Rwd,
}

impl FolderPreset {
    /// Whether the preset allows reading, writing and deleting, in that order.
    fn rights(self) -> [bool; 3] {
        match self {
            FolderPreset::None => [false, false, false],
            FolderPreset::R => [true, false, false],
            FolderPreset::Rw => [true, true, false],
            FolderPreset::Rwd => [true, true, true],
        }
    }
}

/// One folder and its preset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderPermission {
    /// The vault-relative folder (`Projects`, `Work/HR`), without a trailing `/`.
    pub folder: String,
    /// Its permission level.
    pub preset: FolderPreset,
}

/// Why a list of folder presets cannot be turned into a config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PresetError {
    /// A folder is not a valid vault-relative path.
    InvalidFolder {
        /// The folder as given.
        folder: String,
        /// Why it is invalid.
        reason: PathError,
    },
    /// A folder is listed twice (compared in NFC).
    DuplicateFolder {
        /// The folder as given the second time.
        folder: String,
    },
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::InvalidFolder { folder, reason } => {
                write!(f, "folder {folder:?}: {reason}")
            }
            PresetError::DuplicateFolder { folder } => {
                write!(f, "folder {folder:?} is listed twice")
            }
        }
    }
}

/// Builds the [`AclConfig`] that gives each folder its preset and everything else `unlisted`.
pub fn acl_config_from_presets(
    folders: &[FolderPermission],
    unlisted: FolderPreset,
) -> Result<AclConfig, PresetError> {
    let mut validated: Vec<(String, FolderPreset)> = Vec::with_capacity(folders.len());
    for entry in folders {
        let folder = validate_path(&entry.folder).map_err(|reason| PresetError::InvalidFolder {
            folder: entry.folder.clone(),
            reason,
        })?;
        if validated.iter().any(|(seen, _)| *seen == folder) {
            return Err(PresetError::DuplicateFolder {
                folder: entry.folder.clone(),
            });
        }
        validated.push((folder, entry.preset));
    }
    validated.sort_by_key(|(folder, _)| folder.split('/').count());

    let mut lists: [Vec<String>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    for (list, allowed) in lists.iter_mut().zip(unlisted.rights()) {
        if allowed {
            list.push(String::from("**"));
        }
    }
    for (i, (folder, preset)) in validated.iter().enumerate() {
        let inherited = validated[..i]
            .iter()
            .rev()
            .find(|(ancestor, _)| is_ancestor(ancestor, folder))
            .map_or(unlisted, |(_, p)| *p);
        let glob = format!("{}/**", escape(folder));
        for ((list, allowed), was_allowed) in lists
            .iter_mut()
            .zip(preset.rights())
            .zip(inherited.rights())
        {
            if allowed != was_allowed {
                list.push(if allowed {
                    glob.clone()
                } else {
                    format!("!{glob}")
                });
            }
        }
    }
    let [read, write, delete] = lists;
    Ok(AclConfig {
        read_paths: Some(read),
        write_paths: Some(write),
        delete_paths: Some(delete),
        ..AclConfig::default()
    })
}

fn is_ancestor(ancestor: &str, folder: &str) -> bool {
    folder
        .strip_prefix(ancestor)
        .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acl::evaluate::AclOp;
    use crate::acl::policy::AclPolicy;
    use alloc::string::ToString;
    use alloc::vec;

    fn perms(items: &[(&str, FolderPreset)]) -> Vec<FolderPermission> {
        items
            .iter()
            .map(|(f, p)| FolderPermission {
                folder: f.to_string(),
                preset: *p,
            })
            .collect()
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_documented_example() {
        let config = acl_config_from_presets(
            &perms(&[
                ("Private", FolderPreset::None),
                ("Inbox", FolderPreset::Rwd),
            ]),
            FolderPreset::R,
        )
        .unwrap();
        assert_eq!(config.read_paths, Some(strings(&["**", "!Private/**"])));
        assert_eq!(config.write_paths, Some(strings(&["Inbox/**"])));
        assert_eq!(config.delete_paths, Some(strings(&["Inbox/**"])));
        assert!(!config.read_only && !config.strict_read_default && config.rules.is_empty());
    }

    #[test]
    fn nested_folders_override_their_ancestors_whatever_the_input_order() {
        let config = acl_config_from_presets(
            &perms(&[
                ("Work/HR", FolderPreset::None),
                ("Work", FolderPreset::Rw),
                ("Work/HR/Public", FolderPreset::R),
            ]),
            FolderPreset::None,
        )
        .unwrap();
        assert_eq!(
            config.read_paths,
            Some(strings(&["Work/**", "!Work/HR/**", "Work/HR/Public/**"]))
        );
        assert_eq!(
            config.write_paths,
            Some(strings(&["Work/**", "!Work/HR/**"]))
        );
        assert_eq!(config.delete_paths, Some(vec![]));
        let policy = AclPolicy::compile(&config).unwrap();
        let allowed = |path: &str, op| policy.evaluate(path, op, &[]).allowed;
        assert!(allowed("Work/a.md", AclOp::Write));
        assert!(!allowed("Work/HR/pay.md", AclOp::Read));
        assert!(allowed("Work/HR/Public/handbook.md", AclOp::Read));
        assert!(!allowed("Work/HR/Public/handbook.md", AclOp::Write));
        assert!(!allowed("Home/a.md", AclOp::Read));
        assert!(!allowed("Workshop/a.md", AclOp::Read));
    }

    #[test]
    fn glob_characters_in_folder_names_are_escaped() {
        let config = acl_config_from_presets(
            &perms(&[("Notes [old]", FolderPreset::Rw)]),
            FolderPreset::None,
        )
        .unwrap();
        assert_eq!(config.write_paths, Some(strings(&["Notes \\[old\\]/**"])));
        let policy = AclPolicy::compile(&config).unwrap();
        assert!(
            policy
                .evaluate("Notes [old]/a.md", AclOp::Write, &[])
                .allowed
        );
        assert!(!policy.evaluate("Notes o/a.md", AclOp::Write, &[]).allowed);
    }

    #[test]
    fn rejects_invalid_and_duplicate_folders() {
        let err = acl_config_from_presets(&perms(&[("../x", FolderPreset::R)]), FolderPreset::R)
            .unwrap_err();
        assert_eq!(
            err,
            PresetError::InvalidFolder {
                folder: "../x".into(),
                reason: PathError::DotDotSegment
            }
        );
        let err = acl_config_from_presets(
            &perms(&[
                ("Caf\u{e9}", FolderPreset::R),
                ("Cafe\u{301}", FolderPreset::Rw),
            ]),
            FolderPreset::R,
        )
        .unwrap_err();
        assert_eq!(
            err,
            PresetError::DuplicateFolder {
                folder: "Cafe\u{301}".into()
            }
        );
    }
}
