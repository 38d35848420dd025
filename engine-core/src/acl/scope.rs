//! The scope grammar: `family:resource`, wildcards, grant matching and the scope class.
//!
//! A scope is `family:resource` where the family is one of `read`, `write`, `delete`,
//! `execute`, `admin`, `bulk` (or `*`, any family) and the resource is a name made of
//! lowercase ASCII letters, digits, `-` and `_` (or `*`, any resource). `*` alone grants
//! everything; a bare family such as `read` means `read:*`. A granted scope satisfies a
//! required one when its family is `*` or equal and its resource is `*` or equal: sibling
//! scopes never imply each other (`write:notes` does not grant `read:notes`), and a required
//! wildcard (`admin`, i.e. `admin:*`) is only satisfied by a wildcard grant.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

/// Longest scope string accepted, in bytes.
pub const MAX_SCOPE_BYTES: usize = 128;

/// A scope family: the kind of access a scope is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScopeFamily {
    /// Reading notes and vault data.
    Read,
    /// Creating or changing notes and vault data.
    Write,
    /// Deleting notes and vault data.
    Delete,
    /// Running commands (Obsidian command palette, git, QuickAdd).
    Execute,
    /// Administering the server or the vault (config, ACL, metrics).
    Admin,
    /// Operations over many notes at once.
    Bulk,
}

impl ScopeFamily {
    /// Every family, in the order of the reference grammar.
    pub const ALL: [ScopeFamily; 6] = [
        ScopeFamily::Read,
        ScopeFamily::Write,
        ScopeFamily::Delete,
        ScopeFamily::Execute,
        ScopeFamily::Admin,
        ScopeFamily::Bulk,
    ];

    /// Scope classes from the most to the least significant: the rate-limit class of a set
    /// of required scopes is the first of these that occurs in the set.
    pub const CLASS_PRECEDENCE: [ScopeFamily; 6] = [
        ScopeFamily::Bulk,
        ScopeFamily::Execute,
        ScopeFamily::Admin,
        ScopeFamily::Delete,
        ScopeFamily::Write,
        ScopeFamily::Read,
    ];

    /// The family's name as written in a scope.
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeFamily::Read => "read",
            ScopeFamily::Write => "write",
            ScopeFamily::Delete => "delete",
            ScopeFamily::Execute => "execute",
            ScopeFamily::Admin => "admin",
            ScopeFamily::Bulk => "bulk",
        }
    }

    /// Whether the family mutates the vault (`write`, `delete`, `bulk`, `execute`), i.e. is
    /// refused when the vault is read-only.
    pub fn is_mutating(self) -> bool {
        matches!(
            self,
            ScopeFamily::Write | ScopeFamily::Delete | ScopeFamily::Bulk | ScopeFamily::Execute
        )
    }

    fn from_name(name: &str) -> Option<ScopeFamily> {
        ScopeFamily::ALL.into_iter().find(|f| f.as_str() == name)
    }
}

/// Why a string is not a scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeError {
    /// The string is empty.
    Empty,
    /// The string is longer than [`MAX_SCOPE_BYTES`].
    TooLong,
    /// Nothing before the `:` (as in `:notes`).
    EmptyFamily,
    /// The family is not one of the six families nor `*`.
    UnknownFamily,
    /// Nothing after the `:` (as in `read:`).
    EmptyResource,
    /// The resource has a character outside `a-z`, `0-9`, `-`, `_`, or mixes `*` with a name.
    InvalidResource,
}

impl ScopeError {
    /// Stable snake_case name of the reason.
    pub fn as_str(self) -> &'static str {
        match self {
            ScopeError::Empty => "empty",
            ScopeError::TooLong => "too_long",
            ScopeError::EmptyFamily => "empty_family",
            ScopeError::UnknownFamily => "unknown_family",
            ScopeError::EmptyResource => "empty_resource",
            ScopeError::InvalidResource => "invalid_resource",
        }
    }
}

impl fmt::Display for ScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A parsed scope. `family == None` is the family wildcard `*`, `resource == None` the
/// resource wildcard `*`; `*` alone is both.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Scope {
    family: Option<ScopeFamily>,
    resource: Option<String>,
}

impl Scope {
    /// Parses `*`, `family`, `family:resource`, `family:*`, `*:resource` or `*:*`.
    pub fn parse(text: &str) -> Result<Scope, ScopeError> {
        if text.is_empty() {
            return Err(ScopeError::Empty);
        }
        if text.len() > MAX_SCOPE_BYTES {
            return Err(ScopeError::TooLong);
        }
        let (family_text, resource_text) = match text.split_once(':') {
            Some((family, resource)) => (family, Some(resource)),
            None => (text, None),
        };
        let family = match family_text {
            "" => return Err(ScopeError::EmptyFamily),
            "*" => None,
            name => Some(ScopeFamily::from_name(name).ok_or(ScopeError::UnknownFamily)?),
        };
        let resource = match resource_text {
            None | Some("*") => None,
            Some("") => return Err(ScopeError::EmptyResource),
            Some(name) if name.bytes().all(is_resource_byte) => Some(name.to_string()),
            Some(_) => return Err(ScopeError::InvalidResource),
        };
        Ok(Scope { family, resource })
    }

    /// The scope that grants everything (`*`).
    pub fn everything() -> Scope {
        Scope {
            family: None,
            resource: None,
        }
    }

    /// The family, or `None` for the family wildcard.
    pub fn family(&self) -> Option<ScopeFamily> {
        self.family
    }

    /// The resource name, or `None` for the resource wildcard.
    pub fn resource(&self) -> Option<&str> {
        self.resource.as_deref()
    }

    /// Whether holding `self` satisfies the requirement `required`.
    pub fn grants(&self, required: &Scope) -> bool {
        let family_ok = self.family.is_none() || self.family == required.family;
        let resource_ok = self.resource.is_none() || self.resource == required.resource;
        family_ok && resource_ok
    }
}

fn is_resource_byte(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_'
}

impl fmt::Display for Scope {
    /// The canonical form: `*` for everything, else `family:resource` with `*` for a wildcard
    /// part (a bare `read` prints as `read:*`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.family, &self.resource) {
            (None, None) => f.write_str("*"),
            (family, resource) => write!(
                f,
                "{}:{}",
                family.map_or("*", ScopeFamily::as_str),
                resource.as_deref().unwrap_or("*")
            ),
        }
    }
}

impl FromStr for Scope {
    type Err = ScopeError;

    fn from_str(text: &str) -> Result<Scope, ScopeError> {
        Scope::parse(text)
    }
}

impl TryFrom<String> for Scope {
    type Error = ScopeError;

    fn try_from(text: String) -> Result<Scope, ScopeError> {
        Scope::parse(&text)
    }
}

impl From<Scope> for String {
    fn from(scope: Scope) -> String {
        scope.to_string()
    }
}

/// Whether some scope in `granted` satisfies `required`.
pub fn is_granted(granted: &[Scope], required: &Scope) -> bool {
    granted.iter().any(|g| g.grants(required))
}

/// The scopes of `required` that `granted` does not satisfy, in their original order;
/// empty exactly when every requirement is met.
pub fn missing_scopes(granted: &[Scope], required: &[Scope]) -> Vec<Scope> {
    required
        .iter()
        .filter(|r| !is_granted(granted, r))
        .cloned()
        .collect()
}

/// Whether `granted` satisfies every scope of `required` (an empty requirement is always met).
pub fn satisfies_all(granted: &[Scope], required: &[Scope]) -> bool {
    required.iter().all(|r| is_granted(granted, r))
}

/// The scope class (rate-limit tier) of a set of required scopes: the most significant family
/// among them in the order bulk > execute > admin > delete > write > read. A required scope
/// with the family wildcard (`*`, `*:x`) demands every family and so counts as `bulk`.
/// `None` for an empty set.
pub fn scope_class(required: &[Scope]) -> Option<ScopeFamily> {
    if required.iter().any(|s| s.family.is_none()) {
        return Some(ScopeFamily::Bulk);
    }
    ScopeFamily::CLASS_PRECEDENCE
        .into_iter()
        .find(|class| required.iter().any(|s| s.family == Some(*class)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn s(text: &str) -> Scope {
        Scope::parse(text).unwrap()
    }

    #[test]
    fn parses_the_grammar_and_prints_canonically() {
        assert_eq!(s("*").to_string(), "*");
        assert_eq!(s("*:*").to_string(), "*");
        assert_eq!(s("read").to_string(), "read:*");
        assert_eq!(s("read:*").to_string(), "read:*");
        assert_eq!(s("read:notes").to_string(), "read:notes");
        assert_eq!(s("*:notes").to_string(), "*:notes");
        assert_eq!(s("read:daily-notes").resource(), Some("daily-notes"));
        assert_eq!(s("bulk:notes").family(), Some(ScopeFamily::Bulk));
    }

    #[test]
    fn rejects_malformed_scopes_with_a_reason() {
        assert_eq!(Scope::parse(""), Err(ScopeError::Empty));
        assert_eq!(Scope::parse(":notes"), Err(ScopeError::EmptyFamily));
        assert_eq!(Scope::parse("read:"), Err(ScopeError::EmptyResource));
        assert_eq!(Scope::parse("reads:notes"), Err(ScopeError::UnknownFamily));
        assert_eq!(Scope::parse("READ:notes"), Err(ScopeError::UnknownFamily));
        assert_eq!(Scope::parse(" read"), Err(ScopeError::UnknownFamily));
        assert_eq!(Scope::parse("read:Notes"), Err(ScopeError::InvalidResource));
        assert_eq!(
            Scope::parse("read:notes:x"),
            Err(ScopeError::InvalidResource)
        );
        assert_eq!(Scope::parse("read:no*"), Err(ScopeError::InvalidResource));
        assert_eq!(
            Scope::parse(&"a".repeat(MAX_SCOPE_BYTES + 1)),
            Err(ScopeError::TooLong)
        );
    }

    #[test]
    fn grants_follow_family_and_resource_wildcards() {
        assert!(s("*").grants(&s("admin:config")));
        assert!(s("read").grants(&s("read:notes")));
        assert!(s("*:notes").grants(&s("delete:notes")));
        assert!(!s("*:notes").grants(&s("delete:memory")));
        assert!(!s("write:notes").grants(&s("read:notes")));
        assert!(!s("read:notes").grants(&s("read")));
        assert!(s("read").grants(&s("read")));
    }

    #[test]
    fn missing_lists_unsatisfied_requirements_in_order() {
        let granted = vec![s("read:notes"), s("write")];
        let required = vec![
            s("admin:acl"),
            s("read:notes"),
            s("write:tasks"),
            s("delete:notes"),
        ];
        assert_eq!(
            missing_scopes(&granted, &required),
            vec![s("admin:acl"), s("delete:notes")]
        );
        assert!(!satisfies_all(&granted, &required));
        assert!(satisfies_all(&granted, &[]));
    }

    #[test]
    fn scope_class_follows_precedence() {
        assert_eq!(scope_class(&[]), None);
        assert_eq!(scope_class(&[s("read:notes")]), Some(ScopeFamily::Read));
        assert_eq!(
            scope_class(&[s("read:notes"), s("write:notes")]),
            Some(ScopeFamily::Write)
        );
        assert_eq!(
            scope_class(&[s("write:notes"), s("delete:notes")]),
            Some(ScopeFamily::Delete)
        );
        assert_eq!(
            scope_class(&[s("delete:notes"), s("admin:acl")]),
            Some(ScopeFamily::Admin)
        );
        assert_eq!(
            scope_class(&[s("admin:acl"), s("execute:git")]),
            Some(ScopeFamily::Execute)
        );
        assert_eq!(
            scope_class(&[s("write:notes"), s("bulk:notes")]),
            Some(ScopeFamily::Bulk)
        );
        assert_eq!(scope_class(&[s("*:notes")]), Some(ScopeFamily::Bulk));
    }

    #[test]
    fn serde_uses_the_canonical_string() {
        let json = serde_json::to_string(&s("read")).unwrap();
        assert_eq!(json, "\"read:*\"");
        let back: Scope = serde_json::from_str("\"write:notes\"").unwrap();
        assert_eq!(back, s("write:notes"));
        assert!(serde_json::from_str::<Scope>("\"nope:x\"").is_err());
    }

    #[test]
    fn mutating_families() {
        let mutating: Vec<_> = ScopeFamily::ALL
            .into_iter()
            .filter(|f| f.is_mutating())
            .collect();
        assert_eq!(
            mutating,
            vec![
                ScopeFamily::Write,
                ScopeFamily::Delete,
                ScopeFamily::Execute,
                ScopeFamily::Bulk
            ]
        );
    }
}
