//! An [`AclConfig`] compiled once: every glob and scope parsed, errors located.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use crate::acl::config::AclConfig;
use crate::acl::glob::{CaseMode, Glob, GlobError};
use crate::acl::scope::{Scope, ScopeError};

/// A compiled folder ACL, ready for [`AclPolicy::evaluate`](crate::acl::AclPolicy::evaluate).
#[derive(Debug, Clone)]
pub struct AclPolicy {
    pub(super) read_only: bool,
    pub(super) strict_read_default: bool,
    pub(super) read_paths: Option<PathList>,
    pub(super) write_paths: Option<PathList>,
    pub(super) delete_paths: Option<PathList>,
    pub(super) default_scopes: Vec<Scope>,
    pub(super) rules: Vec<CompiledRule>,
}

/// A compiled path whitelist (`readPaths`, `writePaths`, `deletePaths`).
#[derive(Debug, Clone)]
pub(super) struct PathList {
    entries: Vec<PathListEntry>,
}

/// One whitelist entry: a glob, possibly negated with a leading `!`.
#[derive(Debug, Clone)]
pub(super) struct PathListEntry {
    pub(super) text: String,
    pub(super) negated: bool,
    glob: Glob,
}

/// One compiled rule.
#[derive(Debug, Clone)]
pub(super) struct CompiledRule {
    pub(super) text: String,
    pub(super) glob: Glob,
    pub(super) scopes: Vec<Scope>,
}

impl PathList {
    /// The last entry matching `path`, which decides membership.
    pub(super) fn last_match(&self, path: &str) -> Option<&PathListEntry> {
        self.entries.iter().rev().find(|e| e.glob.matches(path))
    }
}

/// What is wrong with one value of an [`AclConfig`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "reason", rename_all = "snake_case")]
pub enum AclConfigProblem {
    /// A glob does not compile.
    Glob(GlobError),
    /// A scope does not parse.
    Scope(ScopeError),
    /// A rule glob starts with `!`; negation only exists in the path lists.
    NegatedRuleGlob,
}

/// A config value that does not compile, with where it is (`readPaths[2]`, `rules[0].glob`,
/// `rules[1].scopes[0]`, `defaultScopes[3]`) and what it says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AclConfigError {
    /// Where the value is in the config.
    pub location: String,
    /// The value as written.
    pub value: String,
    /// What is wrong with it.
    pub problem: AclConfigProblem,
}

impl fmt::Display for AclConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.problem {
            AclConfigProblem::Glob(e) => e.as_str(),
            AclConfigProblem::Scope(e) => e.as_str(),
            AclConfigProblem::NegatedRuleGlob => "negated_rule_glob",
        };
        write!(f, "{} {:?}: {reason}", self.location, self.value)
    }
}

impl AclPolicy {
    /// Compiles `config` for a case-sensitive filesystem.
    pub fn compile(config: &AclConfig) -> Result<AclPolicy, AclConfigError> {
        AclPolicy::compile_for(config, CaseMode::Sensitive)
    }

    /// Compiles `config` with globs matching in `case` mode: the host picks
    /// [`CaseMode::Insensitive`] on a case-insensitive filesystem, where a case variant of a
    /// path names the same file. (The hard-deny list is case-folded in both modes.)
    pub fn compile_for(config: &AclConfig, case: CaseMode) -> Result<AclPolicy, AclConfigError> {
        let path_list = |field: &str, list: &Option<Vec<String>>| {
            list.as_ref()
                .map(|globs| compile_path_list(field, globs, case))
                .transpose()
        };
        let rules = config
            .rules
            .iter()
            .enumerate()
            .map(|(i, rule)| {
                let location = format!("rules[{i}]");
                if rule.glob.starts_with('!') {
                    return Err(error(
                        format!("{location}.glob"),
                        &rule.glob,
                        AclConfigProblem::NegatedRuleGlob,
                    ));
                }
                let glob = Glob::compile(&rule.glob, case).map_err(|e| {
                    error(
                        format!("{location}.glob"),
                        &rule.glob,
                        AclConfigProblem::Glob(e),
                    )
                })?;
                let scopes = parse_scopes(&format!("{location}.scopes"), &rule.scopes)?;
                Ok(CompiledRule {
                    text: rule.glob.clone(),
                    glob,
                    scopes,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AclPolicy {
            read_only: config.read_only,
            strict_read_default: config.strict_read_default,
            read_paths: path_list("readPaths", &config.read_paths)?,
            write_paths: path_list("writePaths", &config.write_paths)?,
            delete_paths: path_list("deletePaths", &config.delete_paths)?,
            default_scopes: parse_scopes("defaultScopes", &config.default_scopes)?,
            rules,
        })
    }
}

fn error(location: String, value: &str, problem: AclConfigProblem) -> AclConfigError {
    AclConfigError {
        location,
        value: value.into(),
        problem,
    }
}

fn compile_path_list(
    field: &str,
    globs: &[String],
    case: CaseMode,
) -> Result<PathList, AclConfigError> {
    let entries = globs
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let (negated, pattern) = match text.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, text.as_str()),
            };
            let glob = Glob::compile(pattern, case)
                .map_err(|e| error(format!("{field}[{i}]"), text, AclConfigProblem::Glob(e)))?;
            Ok(PathListEntry {
                text: text.clone(),
                negated,
                glob,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(PathList { entries })
}

fn parse_scopes(field: &str, scopes: &[String]) -> Result<Vec<Scope>, AclConfigError> {
    scopes
        .iter()
        .enumerate()
        .map(|(i, text)| {
            Scope::parse(text)
                .map_err(|e| error(format!("{field}[{i}]"), text, AclConfigProblem::Scope(e)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::acl::config::AclRule;
    use alloc::string::ToString;
    use alloc::vec;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn locates_the_bad_value() {
        let config = AclConfig {
            read_paths: Some(strings(&["ok/**", "bad["])),
            ..AclConfig::default()
        };
        let err = AclPolicy::compile(&config).unwrap_err();
        assert_eq!(err.location, "readPaths[1]");
        assert_eq!(err.value, "bad[");
        assert_eq!(
            err.problem,
            AclConfigProblem::Glob(GlobError::UnclosedClass)
        );
        assert_eq!(err.to_string(), "readPaths[1] \"bad[\": unclosed_class");

        let config = AclConfig {
            rules: vec![
                AclRule {
                    glob: "a/**".into(),
                    scopes: strings(&["read:notes"]),
                },
                AclRule {
                    glob: "b/**".into(),
                    scopes: strings(&["read:notes", "nope:x"]),
                },
            ],
            ..AclConfig::default()
        };
        let err = AclPolicy::compile(&config).unwrap_err();
        assert_eq!(err.location, "rules[1].scopes[1]");
        assert_eq!(
            err.problem,
            AclConfigProblem::Scope(ScopeError::UnknownFamily)
        );

        let config = AclConfig {
            default_scopes: strings(&["read:"]),
            ..AclConfig::default()
        };
        assert_eq!(
            AclPolicy::compile(&config).unwrap_err().location,
            "defaultScopes[0]"
        );

        let config = AclConfig {
            rules: vec![AclRule {
                glob: "!a/**".into(),
                scopes: vec![],
            }],
            ..AclConfig::default()
        };
        let err = AclPolicy::compile(&config).unwrap_err();
        assert_eq!(
            (err.location.as_str(), err.problem),
            ("rules[0].glob", AclConfigProblem::NegatedRuleGlob)
        );

        let config = AclConfig {
            delete_paths: Some(strings(&["!"])),
            ..AclConfig::default()
        };
        let err = AclPolicy::compile(&config).unwrap_err();
        assert_eq!(err.problem, AclConfigProblem::Glob(GlobError::Empty));
    }

    #[test]
    fn last_matching_entry_decides_membership() {
        let list = compile_path_list(
            "readPaths",
            &strings(&["**", "!Private/**", "Private/Shared/**"]),
            CaseMode::Sensitive,
        )
        .unwrap();
        assert!(!list.last_match("a.md").unwrap().negated);
        assert!(list.last_match("Private/x.md").unwrap().negated);
        assert_eq!(
            list.last_match("Private/Shared/x.md").unwrap().text,
            "Private/Shared/**"
        );
        let escaped =
            compile_path_list("readPaths", &strings(&["\\!bang/**"]), CaseMode::Sensitive).unwrap();
        assert!(!escaped.last_match("!bang/x").unwrap().negated);
    }
}
