//! The property types a vault declares in Obsidian's `.obsidian/types.json`
//! (`{"types": {"key": "number", ...}}`), read only through [`Vault::read_setting`].
//!
//! [`Vault::read_setting`]: crate::vault::Vault::read_setting

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::ObsidianSetting;

/// A property type of Obsidian's property editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum DeclaredType {
    /// One line of text.
    Text,
    /// A list of texts.
    Multitext,
    /// A number.
    Number,
    /// `true` or `false`.
    Checkbox,
    /// `YYYY-MM-DD`.
    Date,
    /// `YYYY-MM-DDTHH:MM`.
    Datetime,
    /// The note's aliases: a list of texts.
    Aliases,
    /// The note's tags: a list of texts.
    Tags,
}

impl DeclaredType {
    /// The type Obsidian names `name`; `None` for a name it does not have.
    fn named(name: &str) -> Option<DeclaredType> {
        Some(match name {
            "text" => DeclaredType::Text,
            "multitext" => DeclaredType::Multitext,
            "number" => DeclaredType::Number,
            "checkbox" => DeclaredType::Checkbox,
            "date" => DeclaredType::Date,
            "datetime" => DeclaredType::Datetime,
            "aliases" => DeclaredType::Aliases,
            "tags" => DeclaredType::Tags,
            _ => return None,
        })
    }

    /// Whether values of this type are lists.
    pub(super) fn is_list(self) -> bool {
        matches!(
            self,
            DeclaredType::Multitext | DeclaredType::Aliases | DeclaredType::Tags
        )
    }
}

/// Property name → declared type. Empty when Obsidian has not written the file; a type name
/// Obsidian does not have is left out. A file that is not a JSON object is `invalid_input`.
pub(super) fn declared_types(
    ctx: &ToolContext<'_>,
) -> Result<BTreeMap<String, DeclaredType>, ToolError> {
    let settings = ctx
        .vault()
        .read_setting(ObsidianSetting::PropertyTypes)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let mut out = BTreeMap::new();
    if let Some(Value::Object(types)) = settings.as_ref().and_then(|s| s.get("types")) {
        for (key, name) in types {
            if let Some(kind) = name.as_str().and_then(DeclaredType::named) {
                out.insert(key.clone(), kind);
            }
        }
    }
    Ok(out)
}
