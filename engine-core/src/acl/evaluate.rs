//! Deciding one operation on one path, with the reasons `inspect_acl` reports.
//!
//! The checks, in order of precedence (the first failing one is `denied_by`):
//!
//! 1. `path_invalid` — the path fails [`validate_path`] (fail closed; nothing else is computed);
//! 2. `hard_deny` — the path is in a control directory ([`is_hard_denied`]);
//! 3. `read_only` — a write or delete while `readOnly` is set;
//! 4. `strict_read_default` — a read while `readPaths` is omitted and `strictReadDefault` is set;
//!    `not_in_read_paths` / `not_in_write_paths` / `not_in_delete_paths` — the operation's list
//!    is present and does not admit the path (the last matching entry decides);
//! 5. `missing_scope` — the granted scopes do not cover the path's scopes: those of the last
//!    rule whose glob matches, else `defaultScopes`. These come on top of the tool's own
//!    scopes, which dispatch checks before the ACL.
//!
//! For a valid path every field is filled in even when an earlier check already denies, so
//! that `inspect_acl` shows the whole picture.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use crate::acl::hard_deny::is_hard_denied;
use crate::acl::path::{PathError, validate_path};
use crate::acl::policy::{AclPolicy, PathList};
use crate::acl::scope::{Scope, missing_scopes};

/// The kind of access asked for a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AclOp {
    /// Reading the path (also listing and searching it).
    Read,
    /// Creating or changing the path.
    Write,
    /// Deleting the path.
    Delete,
}

impl AclOp {
    /// Whether the operation changes the vault (refused when the ACL is read-only).
    pub fn is_mutating(self) -> bool {
        matches!(self, AclOp::Write | AclOp::Delete)
    }
}

/// Why an operation was denied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DenyReason {
    /// The path is not a valid vault-relative path.
    PathInvalid,
    /// The path is in a control directory (`.obsidian`, `.git`, `.trash`).
    HardDeny,
    /// A write or delete while the ACL is read-only.
    ReadOnly,
    /// A read with `readPaths` omitted under `strictReadDefault`.
    StrictReadDefault,
    /// `readPaths` does not admit the path.
    NotInReadPaths,
    /// `writePaths` does not admit the path.
    NotInWritePaths,
    /// `deletePaths` does not admit the path.
    NotInDeletePaths,
    /// The caller lacks scopes that the path's rule (or `defaultScopes`) requires.
    MissingScope,
}

/// The outcome of [`AclPolicy::evaluate`] and everything that led to it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// Whether the operation may proceed.
    pub allowed: bool,
    /// The first check that failed, if any.
    pub denied_by: Option<DenyReason>,
    /// The operation asked for.
    pub op: AclOp,
    /// The validated path (NFC), or `None` when it is invalid.
    pub path: Option<String>,
    /// Why the path is invalid, when it is.
    pub path_error: Option<PathError>,
    /// The entry of the operation's path list that decided membership (the last match, as
    /// written, `!` included), or `None` when the list is omitted or nothing matched.
    pub path_list_entry: Option<String>,
    /// The glob of the rule that set the path's scopes (the last match, as written), or
    /// `None` when no rule matched and `defaultScopes` apply.
    pub matched_rule: Option<String>,
    /// The scopes the path requires on top of the tool's own.
    pub required_scopes: Vec<Scope>,
    /// Those of `required_scopes` that the granted scopes do not cover.
    pub missing_scopes: Vec<Scope>,
}

impl AclPolicy {
    /// Decides whether a caller holding `granted` may perform `op` on `path`.
    pub fn evaluate(&self, path: &str, op: AclOp, granted: &[Scope]) -> Decision {
        let path = match validate_path(path) {
            Ok(path) => path,
            Err(error) => {
                return Decision {
                    allowed: false,
                    denied_by: Some(DenyReason::PathInvalid),
                    op,
                    path: None,
                    path_error: Some(error),
                    path_list_entry: None,
                    matched_rule: None,
                    required_scopes: Vec::new(),
                    missing_scopes: Vec::new(),
                };
            }
        };
        let rule = self.rules.iter().rev().find(|r| r.glob.matches(&path));
        let required_scopes = rule.map_or(&self.default_scopes, |r| &r.scopes).clone();
        let missing = missing_scopes(granted, &required_scopes);
        let (list, not_in_list) = match op {
            AclOp::Read => (&self.read_paths, DenyReason::NotInReadPaths),
            AclOp::Write => (&self.write_paths, DenyReason::NotInWritePaths),
            AclOp::Delete => (&self.delete_paths, DenyReason::NotInDeletePaths),
        };
        let (path_list_entry, list_denial) = match list {
            None if op == AclOp::Read && self.strict_read_default => {
                (None, Some(DenyReason::StrictReadDefault))
            }
            None => (None, None),
            Some(list) => admitted_by(list, &path, not_in_list),
        };
        let denied_by = if is_hard_denied(&path) {
            Some(DenyReason::HardDeny)
        } else if self.read_only && op.is_mutating() {
            Some(DenyReason::ReadOnly)
        } else if list_denial.is_some() {
            list_denial
        } else if !missing.is_empty() {
            Some(DenyReason::MissingScope)
        } else {
            None
        };
        Decision {
            allowed: denied_by.is_none(),
            denied_by,
            op,
            path: Some(path),
            path_error: None,
            path_list_entry,
            matched_rule: rule.map(|r| r.text.clone()),
            required_scopes,
            missing_scopes: missing,
        }
    }
}

/// The deciding entry of `list` for `path`, and the denial when it does not admit the path.
fn admitted_by(
    list: &PathList,
    path: &str,
    denial: DenyReason,
) -> (Option<String>, Option<DenyReason>) {
    match list.last_match(path) {
        Some(entry) if !entry.negated => (Some(entry.text.clone()), None),
        Some(entry) => (Some(entry.text.clone()), Some(denial)),
        None => (None, Some(denial)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acl::config::{AclConfig, AclRule};
    use crate::acl::glob::CaseMode;
    use alloc::string::ToString;
    use alloc::vec;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn scopes(items: &[&str]) -> Vec<Scope> {
        items.iter().map(|s| Scope::parse(s).unwrap()).collect()
    }

    fn policy(config: AclConfig) -> AclPolicy {
        AclPolicy::compile(&config).unwrap()
    }

    #[test]
    fn an_empty_config_allows_everything_but_control_directories() {
        let p = policy(AclConfig::default());
        let d = p.evaluate("Notes/a.md", AclOp::Delete, &[]);
        assert!(d.allowed);
        assert_eq!(d.path.as_deref(), Some("Notes/a.md"));
        let d = p.evaluate(".obsidian/app.json", AclOp::Read, &scopes(&["*"]));
        assert_eq!(d.denied_by, Some(DenyReason::HardDeny));
        assert!(
            p.evaluate(".obsidian/bookmarks.json", AclOp::Write, &[])
                .allowed
        );
    }

    #[test]
    fn invalid_paths_fail_closed() {
        let p = policy(AclConfig::default());
        let d = p.evaluate("../etc/passwd", AclOp::Read, &scopes(&["*"]));
        assert_eq!(d.denied_by, Some(DenyReason::PathInvalid));
        assert_eq!(d.path_error, Some(PathError::DotDotSegment));
        assert_eq!(d.path, None);
    }

    #[test]
    fn omitted_lists_are_unrestricted_and_empty_lists_deny_all() {
        let p = policy(AclConfig {
            write_paths: Some(vec![]),
            ..AclConfig::default()
        });
        assert!(p.evaluate("a.md", AclOp::Read, &[]).allowed);
        assert_eq!(
            p.evaluate("a.md", AclOp::Write, &[]).denied_by,
            Some(DenyReason::NotInWritePaths)
        );
        assert!(p.evaluate("a.md", AclOp::Delete, &[]).allowed);
    }

    #[test]
    fn whitelists_use_the_last_matching_entry() {
        let p = policy(AclConfig {
            read_paths: Some(strings(&["**", "!Private/**"])),
            delete_paths: Some(strings(&["Inbox/**"])),
            ..AclConfig::default()
        });
        let d = p.evaluate("Private/x.md", AclOp::Read, &[]);
        assert_eq!(d.denied_by, Some(DenyReason::NotInReadPaths));
        assert_eq!(d.path_list_entry.as_deref(), Some("!Private/**"));
        let d = p.evaluate("Public/x.md", AclOp::Read, &[]);
        assert!(d.allowed);
        assert_eq!(d.path_list_entry.as_deref(), Some("**"));
        assert!(p.evaluate("Inbox", AclOp::Delete, &[]).allowed);
        assert_eq!(
            p.evaluate("Notes/a.md", AclOp::Delete, &[]).denied_by,
            Some(DenyReason::NotInDeletePaths)
        );
    }

    #[test]
    fn strict_reads_fail_closed_only_when_read_paths_is_omitted() {
        let strict = policy(AclConfig {
            strict_read_default: true,
            ..AclConfig::default()
        });
        assert_eq!(
            strict.evaluate("a.md", AclOp::Read, &[]).denied_by,
            Some(DenyReason::StrictReadDefault)
        );
        assert!(strict.evaluate("a.md", AclOp::Write, &[]).allowed);
        let listed = policy(AclConfig {
            strict_read_default: true,
            read_paths: Some(strings(&["a.md"])),
            ..AclConfig::default()
        });
        assert!(listed.evaluate("a.md", AclOp::Read, &[]).allowed);
    }

    #[test]
    fn read_only_refuses_writes_and_deletes() {
        let p = policy(AclConfig {
            read_only: true,
            ..AclConfig::default()
        });
        assert!(p.evaluate("a.md", AclOp::Read, &[]).allowed);
        assert_eq!(
            p.evaluate("a.md", AclOp::Write, &scopes(&["*"])).denied_by,
            Some(DenyReason::ReadOnly)
        );
        assert_eq!(
            p.evaluate("a.md", AclOp::Delete, &[]).denied_by,
            Some(DenyReason::ReadOnly)
        );
    }

    #[test]
    fn last_matching_rule_replaces_default_scopes() {
        let p = policy(AclConfig {
            default_scopes: strings(&["read:notes"]),
            rules: vec![
                AclRule {
                    glob: "Work/**".into(),
                    scopes: strings(&["admin:vault"]),
                },
                AclRule {
                    glob: "Work/Public/**".into(),
                    scopes: vec![],
                },
            ],
            ..AclConfig::default()
        });
        let d = p.evaluate("Home/a.md", AclOp::Read, &[]);
        assert_eq!(d.denied_by, Some(DenyReason::MissingScope));
        assert_eq!(d.matched_rule, None);
        assert_eq!(d.missing_scopes, scopes(&["read:notes"]));
        let d = p.evaluate("Work/a.md", AclOp::Read, &scopes(&["read:notes"]));
        assert_eq!(d.matched_rule.as_deref(), Some("Work/**"));
        assert_eq!(d.required_scopes, scopes(&["admin:vault"]));
        assert_eq!(d.denied_by, Some(DenyReason::MissingScope));
        let d = p.evaluate("Work/Public/a.md", AclOp::Read, &[]);
        assert!(d.allowed);
        assert!(d.required_scopes.is_empty());
        assert!(
            p.evaluate("Work/a.md", AclOp::Read, &scopes(&["admin"]))
                .allowed
        );
    }

    #[test]
    fn precedence_of_reasons() {
        let p = policy(AclConfig {
            read_only: true,
            write_paths: Some(vec![]),
            default_scopes: strings(&["admin:vault"]),
            ..AclConfig::default()
        });
        assert_eq!(
            p.evaluate(".git/config", AclOp::Write, &[]).denied_by,
            Some(DenyReason::HardDeny)
        );
        let d = p.evaluate("a.md", AclOp::Write, &[]);
        assert_eq!(d.denied_by, Some(DenyReason::ReadOnly));
        assert_eq!(d.missing_scopes, scopes(&["admin:vault"]));
        assert_eq!(
            p.evaluate("a.md", AclOp::Read, &[]).denied_by,
            Some(DenyReason::MissingScope)
        );
    }

    #[test]
    fn normalisation_and_case_modes() {
        let config = AclConfig {
            read_paths: Some(strings(&["Caf\u{e9}/**"])),
            ..AclConfig::default()
        };
        let sensitive = policy(config.clone());
        assert!(
            sensitive
                .evaluate("Cafe\u{301}/x.md", AclOp::Read, &[])
                .allowed
        );
        assert!(
            !sensitive
                .evaluate("CAF\u{c9}/x.md", AclOp::Read, &[])
                .allowed
        );
        let insensitive = AclPolicy::compile_for(&config, CaseMode::Insensitive).unwrap();
        assert!(
            insensitive
                .evaluate("CAF\u{c9}/x.md", AclOp::Read, &[])
                .allowed
        );
    }
}
