//! The folder ACL as written in the user's config file (camelCase JSON, as in the original).

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

/// A folder ACL, as the host reads it from the config (`acl` at the root or per vault).
///
/// Unknown fields are refused: a misspelt `readpaths` must not silently leave reads open.
/// The path lists are glob whitelists with three states kept apart: omitted (or `null`) is
/// unrestricted, `[]` denies everything, and a list admits a path when the last entry that
/// matches it is a plain glob. An entry starting with `!` excludes what it matches (write
/// `\!` for a glob that starts with a literal `!`); without `!` entries a list is simply
/// "matches at least one glob".
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AclConfig {
    /// Kill switch: every write and delete is refused (`read_only`).
    #[serde(default)]
    pub read_only: bool,
    /// Globs of the paths that may be read; `None` = unrestricted (unless `strict_read_default`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_paths: Option<Vec<String>>,
    /// Globs of the paths that may be written; `None` = unrestricted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_paths: Option<Vec<String>>,
    /// Globs of the paths that may be deleted; `None` = unrestricted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delete_paths: Option<Vec<String>>,
    /// When true, an omitted `read_paths` denies every read instead of allowing all.
    #[serde(default)]
    pub strict_read_default: bool,
    /// Scopes required (on top of the tool's own) on a path that matches no rule.
    #[serde(default)]
    pub default_scopes: Vec<String>,
    /// Extra scope requirements per glob; the last matching rule wins and replaces
    /// `default_scopes` rather than adding to them.
    #[serde(default)]
    pub rules: Vec<AclRule>,
}

/// One rule: the scopes a path matching `glob` requires in addition to the tool's own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AclRule {
    /// The glob the path must match (no `!` negation here).
    pub glob: String,
    /// The scopes required on a matching path (may be empty: no extra requirement).
    pub scopes: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;
    use alloc::vec;

    #[test]
    fn reads_the_original_field_names_and_keeps_omitted_apart_from_empty() {
        let json = r#"{"readOnly": true, "readPaths": ["Notes/**"], "writePaths": [],
            "strictReadDefault": true, "defaultScopes": ["read:notes"],
            "rules": [{"glob": "Private/**", "scopes": ["admin:vault"]}]}"#;
        let config: AclConfig = serde_json::from_str(json).unwrap();
        assert!(config.read_only && config.strict_read_default);
        assert_eq!(config.read_paths, Some(vec!["Notes/**".to_string()]));
        assert_eq!(config.write_paths, Some(vec![]));
        assert_eq!(config.delete_paths, None);
        assert_eq!(config.rules[0].scopes, vec!["admin:vault".to_string()]);
        let again: AclConfig =
            serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
        assert_eq!(again, config);
    }

    #[test]
    fn defaults_and_unknown_fields() {
        let empty: AclConfig = serde_json::from_str("{}").unwrap();
        assert_eq!(empty, AclConfig::default());
        let null: AclConfig = serde_json::from_str(r#"{"readPaths": null}"#).unwrap();
        assert_eq!(null.read_paths, None);
        assert!(serde_json::from_str::<AclConfig>(r#"{"readpaths": []}"#).is_err());
        assert!(serde_json::from_str::<AclConfig>(r#"{"read_paths": []}"#).is_err());
    }
}
