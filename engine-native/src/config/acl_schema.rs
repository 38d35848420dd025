//! The JSON Schema of `engine_core::acl::AclConfig`, which lives in a `no_std` crate without
//! schemars. The type itself is reused as is; a test checks this schema against its serde form.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};

/// Stands in for `AclConfig` in schema generation (`#[schemars(with = "AclConfigSchema")]`).
pub struct AclConfigSchema;

impl JsonSchema for AclConfigSchema {
    fn schema_name() -> Cow<'static, str> {
        "AclConfig".into()
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        let globs = |what: &str| {
            json_schema!({
                "description": format!(
                    "Globs of the paths that may be {what}. Omitted or null: unrestricted; \
                     []: nothing. The last matching entry decides; an entry starting with `!` \
                     excludes what it matches."
                ),
                "type": ["array", "null"],
                "items": { "type": "string" }
            })
        };
        json_schema!({
            "description": "A folder ACL. A vault's own `acl` replaces the root one.",
            "type": "object",
            "properties": {
                "readOnly": {
                    "description": "Kill switch: every write and delete is refused.",
                    "type": "boolean",
                    "default": false
                },
                "readPaths": globs("read"),
                "writePaths": globs("written"),
                "deletePaths": globs("deleted"),
                "strictReadDefault": {
                    "description": "When true, an omitted `readPaths` denies every read.",
                    "type": "boolean",
                    "default": false
                },
                "defaultScopes": {
                    "description": "Scopes required (on top of the tool's own) on a path that matches no rule.",
                    "type": "array",
                    "items": { "type": "string" },
                    "default": []
                },
                "rules": {
                    "description": "Extra scopes per glob; the last matching rule wins.",
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "glob": { "type": "string" },
                            "scopes": { "type": "array", "items": { "type": "string" } }
                        },
                        "required": ["glob", "scopes"],
                        "additionalProperties": false
                    },
                    "default": []
                }
            },
            "additionalProperties": false
        })
    }
}
