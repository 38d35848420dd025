//! Exports for [`engine_core::acl`]: scopes, globs, path validation, the folder ACL
//! evaluator and folder presets.

use engine_core::acl::{
    self, AclConfig, AclOp, AclPolicy, CaseMode, Decision, FolderPermission, FolderPreset, Glob,
    Scope, ScopeFamily,
};
use serde::{Deserialize, Serialize};

use super::ApiError;

/// Input of [`parse_scope`].
#[derive(Debug, Deserialize)]
pub struct ParseScopeInput {
    /// The scope string (`read:notes`, `write`, `*`).
    pub scope: String,
}

/// Output of [`parse_scope`]: the parts of a valid scope, or the reason it is invalid.
#[derive(Debug, Serialize)]
pub struct ParseScopeOutput {
    /// Whether the string is a scope.
    pub valid: bool,
    /// The canonical form (`read:*` for `read`, `*` for `*:*`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical: Option<String>,
    /// The family, `*` for any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub family: Option<String>,
    /// The resource, `*` for any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// Why the string is not a scope (`unknown_family`, `empty_resource`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Parses one scope and reports its parts or the reason it is invalid.
pub fn parse_scope(input: ParseScopeInput) -> Result<ParseScopeOutput, ApiError> {
    Ok(match Scope::parse(&input.scope) {
        Ok(scope) => ParseScopeOutput {
            valid: true,
            canonical: Some(scope.to_string()),
            family: Some(scope.family().map_or("*", ScopeFamily::as_str).to_string()),
            resource: Some(scope.resource().unwrap_or("*").to_string()),
            error: None,
        },
        Err(error) => ParseScopeOutput {
            valid: false,
            canonical: None,
            family: None,
            resource: None,
            error: Some(error.as_str().to_string()),
        },
    })
}

/// Input of [`scopes_satisfy`].
#[derive(Debug, Deserialize)]
pub struct ScopesSatisfyInput {
    /// The scopes the caller holds.
    pub granted: Vec<String>,
    /// The scopes the operation requires.
    pub required: Vec<String>,
}

/// Output of [`scopes_satisfy`].
#[derive(Debug, Serialize)]
pub struct ScopesSatisfyOutput {
    /// Whether every required scope is granted.
    pub satisfied: bool,
    /// The required scopes not granted, canonical, in their order.
    pub missing: Vec<String>,
}

/// Checks a set of granted scopes against a set of required ones.
pub fn scopes_satisfy(input: ScopesSatisfyInput) -> Result<ScopesSatisfyOutput, ApiError> {
    let granted = parse_scopes(&input.granted)?;
    let required = parse_scopes(&input.required)?;
    let missing: Vec<String> = acl::missing_scopes(&granted, &required)
        .iter()
        .map(Scope::to_string)
        .collect();
    Ok(ScopesSatisfyOutput {
        satisfied: missing.is_empty(),
        missing,
    })
}

/// Input of [`scope_class`].
#[derive(Debug, Deserialize)]
pub struct ScopeClassInput {
    /// The scopes a tool requires.
    pub required: Vec<String>,
}

/// Output of [`scope_class`].
#[derive(Debug, Serialize)]
pub struct ScopeClassOutput {
    /// The rate-limit class (`bulk` > `execute` > `admin` > `delete` > `write` > `read`),
    /// `null` for no scopes.
    pub scope_class: Option<ScopeFamily>,
}

/// The scope class of a set of required scopes.
pub fn scope_class(input: ScopeClassInput) -> Result<ScopeClassOutput, ApiError> {
    let required = parse_scopes(&input.required)?;
    Ok(ScopeClassOutput {
        scope_class: acl::scope_class(&required),
    })
}

/// Input of [`glob_match`].
#[derive(Debug, Deserialize)]
pub struct GlobMatchInput {
    /// The glob pattern.
    pub pattern: String,
    /// The path to match (not validated; compared in NFC).
    pub path: String,
    /// Compare after case folding (default false).
    #[serde(default)]
    pub case_insensitive: bool,
}

/// Output of [`glob_match`].
#[derive(Debug, Serialize)]
pub struct GlobMatchOutput {
    /// Whether the pattern matches the whole path.
    pub matched: bool,
}

/// Matches one glob against one path.
pub fn glob_match(input: GlobMatchInput) -> Result<GlobMatchOutput, ApiError> {
    let glob = Glob::compile(&input.pattern, case_mode(input.case_insensitive))
        .map_err(|e| ApiError::new("invalid_glob", format!("{:?}: {e}", input.pattern)))?;
    Ok(GlobMatchOutput {
        matched: glob.matches(&input.path),
    })
}

/// Input of [`validate_path`].
#[derive(Debug, Deserialize)]
pub struct ValidatePathInput {
    /// The vault-relative path to check.
    pub path: String,
}

/// Output of [`validate_path`]: the NFC path, or the reason it is invalid.
#[derive(Debug, Serialize)]
pub struct ValidatePathOutput {
    /// Whether the path is a valid vault-relative path.
    pub valid: bool,
    /// The path in NFC, when valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Why the path is invalid (`dot_dot_segment`, `absolute`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<acl::PathError>,
}

/// Validates a vault-relative path.
pub fn validate_path(input: ValidatePathInput) -> Result<ValidatePathOutput, ApiError> {
    Ok(match acl::validate_path(&input.path) {
        Ok(path) => ValidatePathOutput {
            valid: true,
            path: Some(path),
            reason: None,
        },
        Err(reason) => ValidatePathOutput {
            valid: false,
            path: None,
            reason: Some(reason),
        },
    })
}

/// Input of [`acl_evaluate`].
#[derive(Debug, Deserialize)]
pub struct AclEvaluateInput {
    /// The folder ACL, exactly as in the config file (camelCase fields). Kept as JSON here so
    /// that a bad config reports `invalid_config` rather than `invalid_input`.
    pub config: serde_json::Value,
    /// The vault-relative path.
    pub path: String,
    /// `read`, `write` or `delete`.
    pub op: AclOp,
    /// The scopes the caller holds.
    pub granted: Vec<String>,
    /// Match globs after case folding, as on a case-insensitive filesystem (default false).
    #[serde(default)]
    pub case_insensitive: bool,
}

/// Compiles an ACL and decides one operation on one path, with the reasons `inspect_acl` shows.
pub fn acl_evaluate(input: AclEvaluateInput) -> Result<Decision, ApiError> {
    let config: AclConfig = serde_json::from_value(input.config)
        .map_err(|e| ApiError::new("invalid_config", e.to_string()))?;
    let policy = AclPolicy::compile_for(&config, case_mode(input.case_insensitive))
        .map_err(|e| ApiError::new("invalid_config", e.to_string()))?;
    let granted = parse_scopes(&input.granted)?;
    Ok(policy.evaluate(&input.path, input.op, &granted))
}

/// Input of [`acl_from_presets`].
#[derive(Debug, Deserialize)]
pub struct AclFromPresetsInput {
    /// Each folder with its preset (`none`, `r`, `rw`, `rwd`).
    pub folders: Vec<FolderPermission>,
    /// The preset of everything no listed folder covers (default `r`).
    #[serde(default)]
    pub unlisted: Option<FolderPreset>,
}

/// Builds the folder ACL config that implements per-folder presets.
pub fn acl_from_presets(input: AclFromPresetsInput) -> Result<AclConfig, ApiError> {
    acl::acl_config_from_presets(&input.folders, input.unlisted.unwrap_or(FolderPreset::R))
        .map_err(|e| ApiError::new("invalid_presets", e.to_string()))
}

fn case_mode(case_insensitive: bool) -> CaseMode {
    if case_insensitive {
        CaseMode::Insensitive
    } else {
        CaseMode::Sensitive
    }
}

fn parse_scopes(texts: &[String]) -> Result<Vec<Scope>, ApiError> {
    texts
        .iter()
        .map(|t| Scope::parse(t).map_err(|e| ApiError::new("invalid_scope", format!("{t:?}: {e}"))))
        .collect()
}
