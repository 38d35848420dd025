//! Access control: scopes, the glob matcher, path validation and the folder ACL evaluator.
//!
//! - [`scope`]: the `family:resource` scope grammar, grant matching and the scope class.
//! - [`glob`]: a `no_std` glob matcher (`*`, `**`, `?`, `[...]`), compiled once, matched
//!   without exponential backtracking, optionally case-insensitive, NFC-insensitive.
//! - [`path`]: lexical validation of vault-relative paths with a typed reason per rejection.
//! - [`hard_deny`]: the control directories (`.obsidian`, `.git`, `.trash`) no config opens.
//! - [`config`], [`policy`], [`evaluate`]: the folder ACL as written in the config file, its
//!   compiled form, and the decision for one operation on one path.
//! - [`presets`]: per-folder none / r / rw / rwd presets mapped onto an [`AclConfig`].
//!
//! ```
//! use engine_core::acl::{AclConfig, AclOp, AclPolicy, DenyReason, Scope};
//!
//! let config: AclConfig = serde_json::from_str(r#"{"writePaths": ["Inbox/**"]}"#).unwrap();
//! let policy = AclPolicy::compile(&config).unwrap();
//! let granted = [Scope::parse("write:notes").unwrap()];
//! assert!(policy.evaluate("Inbox/idea.md", AclOp::Write, &granted).allowed);
//! let denied = policy.evaluate("Journal/today.md", AclOp::Write, &granted);
//! assert_eq!(denied.denied_by, Some(DenyReason::NotInWritePaths));
//! ```

pub mod casefold;
pub mod config;
pub mod evaluate;
pub mod glob;
pub mod hard_deny;
pub mod path;
pub mod policy;
pub mod presets;
pub mod scope;

pub use config::{AclConfig, AclRule};
pub use evaluate::{AclOp, Decision, DenyReason};
pub use glob::{CaseMode, Glob, GlobError, glob_match};
pub use hard_deny::{HARD_DENY_EXEMPT, is_hard_denied};
pub use path::{MAX_PATH_BYTES, MAX_SEGMENT_BYTES, PathError, validate_path, windows_name_problem};
pub use policy::{AclConfigError, AclConfigProblem, AclPolicy};
pub use presets::{FolderPermission, FolderPreset, PresetError, acl_config_from_presets};
pub use scope::{
    Scope, ScopeError, ScopeFamily, is_granted, missing_scopes, satisfies_all, scope_class,
};
