//! [`Registry`]: the registered tools and who sees which (`toolVisibility`).
//!
//! A tool is *callable* when it is listed or only scope-denied; a hidden or disabled tool
//! answers `not_found` exactly like an unregistered one, and a tool the `core` profile leaves
//! out answers `capability_hidden` naming `toolVisibility.profile` (its existence is no
//! secret: it is a built-in tool, left out by a preset).

use std::collections::BTreeMap;
use std::fmt;

use engine_core::acl::{Scope, ScopeError, missing_scopes};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::config::{ToolVisibilityConfig, VisibilityProfile};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::core_tools::is_core;
use crate::runtime::tool::{IDEMPOTENCY_KEY_ARG, Tool, ToolDef, VAULT_ARG};

/// The config key of the tool profile, named in what it refuses.
pub const PROFILE_KEY: &str = "toolVisibility.profile";

/// The largest `idempotency_key`, in characters (v1 §1.2).
pub const MAX_IDEMPOTENCY_KEY_CHARS: u64 = 128;

/// Why a tool a caller names is or is not offered to it (`inspect_visibility`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Visibility {
    /// Listed and callable.
    Listed,
    /// Left out of listings and answering `not_found`.
    Hidden {
        /// The config rule responsible.
        rule: String,
    },
    /// Not callable at all, answering `not_found`.
    Disabled {
        /// The config rule responsible.
        rule: String,
    },
    /// Left out of listings and refused (`capability_hidden`) by the tool profile: the tool
    /// is not in the `core` set.
    DisabledByProfile {
        /// The config rule responsible.
        rule: String,
    },
    /// Registered and enabled, but the caller lacks scopes: not listed, a call is `forbidden`.
    ScopeDenied {
        /// The scopes the caller lacks.
        #[schemars(with = "Vec<String>")]
        missing: Vec<Scope>,
    },
    /// No tool has this name.
    Unregistered,
}

/// Why a tool could not be registered (a programming error in its declaration).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RegistryError {
    /// Another tool already has the name.
    Duplicate {
        /// The name.
        name: String,
    },
    /// A required scope does not parse.
    BadScope {
        /// The tool.
        name: String,
        /// The scope text.
        scope: String,
        /// Why it does not parse.
        reason: ScopeError,
    },
    /// The input schema is not an object schema with `additionalProperties: false`, or a
    /// declared path argument is not one of its properties.
    BadSchema {
        /// The tool.
        name: String,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for RegistryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegistryError::Duplicate { name } => write!(f, "tool {name} is registered twice"),
            RegistryError::BadScope {
                name,
                scope,
                reason,
            } => write!(f, "tool {name}: scope {scope:?} is invalid ({reason:?})"),
            RegistryError::BadSchema { name, problem } => {
                write!(f, "tool {name}: input schema: {problem}")
            }
        }
    }
}

impl std::error::Error for RegistryError {}

/// The tools of one server and the visibility rules in force.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    tools: BTreeMap<&'static str, Tool>,
    visibility: ToolVisibilityConfig,
}

impl Registry {
    /// An empty registry applying `visibility`.
    pub fn new(visibility: ToolVisibilityConfig) -> Registry {
        Registry {
            tools: BTreeMap::new(),
            visibility,
        }
    }

    /// Registers `def`: parses its scopes, checks its schema and adds the dispatch-owned
    /// `vault` / `idempotency_key` properties.
    pub fn register(&mut self, mut def: ToolDef) -> Result<(), RegistryError> {
        let name = def.name;
        if self.tools.contains_key(name) {
            return Err(RegistryError::Duplicate {
                name: name.to_owned(),
            });
        }
        let scopes = def
            .scopes
            .iter()
            .map(|text| {
                Scope::parse(text).map_err(|reason| RegistryError::BadScope {
                    name: name.to_owned(),
                    scope: (*text).to_owned(),
                    reason,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        add_meta_properties(&mut def)?;
        self.tools.insert(name, Tool { def, scopes });
        Ok(())
    }

    /// The same tools under other visibility rules (a reload of `toolVisibility`).
    pub fn with_visibility(&self, visibility: ToolVisibilityConfig) -> Registry {
        Registry {
            tools: self.tools.clone(),
            visibility,
        }
    }

    /// The registered tool called `name`, whoever may see it.
    pub fn get(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// Every registered tool, by name.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.tools.values()
    }

    /// The visibility rules in force.
    pub fn visibility_config(&self) -> &ToolVisibilityConfig {
        &self.visibility
    }

    /// Why `name` is or is not offered to `caller`.
    pub fn visibility(&self, name: &str, caller: &Caller) -> Visibility {
        let Some(tool) = self.tools.get(name) else {
            return Visibility::Unregistered;
        };
        let rules = &self.visibility;
        let named = |list: &[String]| list.iter().any(|entry| entry == name);
        if named(&rules.disable) {
            return Visibility::Disabled {
                rule: "toolVisibility.disable".to_owned(),
            };
        }
        if rules.profile == VisibilityProfile::ReadOnly && tool.is_mutating() {
            return Visibility::Disabled {
                rule: "toolVisibility.profile readOnly (the tool changes the vault)".to_owned(),
            };
        }
        if rules.profile == VisibilityProfile::Core && !is_core(name) {
            return Visibility::DisabledByProfile {
                rule: format!("{PROFILE_KEY} core (not in the core set)"),
            };
        }
        if rules.allow.as_deref().is_some_and(|allow| !named(allow)) {
            return Visibility::Hidden {
                rule: "toolVisibility.allow (not in the list)".to_owned(),
            };
        }
        if named(&rules.hide) {
            return Visibility::Hidden {
                rule: "toolVisibility.hide".to_owned(),
            };
        }
        let missing = missing_scopes(&caller.scopes, &tool.scopes);
        if missing.is_empty() {
            Visibility::Listed
        } else {
            Visibility::ScopeDenied { missing }
        }
    }

    /// The tool `name` if `caller` may call it (listed or only scope-denied); `None` for an
    /// unregistered, hidden or disabled tool alike.
    pub fn callable(&self, name: &str, caller: &Caller) -> Option<&Tool> {
        match self.visibility(name, caller) {
            Visibility::Listed | Visibility::ScopeDenied { .. } => self.tools.get(name),
            _ => None,
        }
    }

    /// Why a call to `name` by `caller` finds no tool ([`Registry::callable`] gave `None`):
    /// `capability_hidden` naming the config key for a tool the profile leaves out,
    /// `not_found` for anything else.
    pub fn refusal(&self, name: &str, caller: &Caller) -> ToolError {
        match self.visibility(name, caller) {
            Visibility::DisabledByProfile { rule } => ToolError::new(
                ErrorCode::CapabilityHidden,
                format!("'{name}' is not offered by this server: {rule}"),
            )
            .with_details(json!({ "name": name, "config_key": PROFILE_KEY, "profile": "core" })),
            _ => ToolError::tool_not_found(name),
        }
    }

    /// The tools listed to `caller`, by name.
    pub fn visible_tools(&self, caller: &Caller) -> Vec<&Tool> {
        self.tools
            .values()
            .filter(|tool| self.visibility(tool.name(), caller) == Visibility::Listed)
            .collect()
    }
}

/// Checks the root of `def.input_schema` and adds `vault` and `idempotency_key`.
fn add_meta_properties(def: &mut ToolDef) -> Result<(), RegistryError> {
    let bad = |problem: &str| RegistryError::BadSchema {
        name: def.name.to_owned(),
        problem: problem.to_owned(),
    };
    let root = def
        .input_schema
        .as_object_mut()
        .ok_or_else(|| bad("the root is not an object"))?;
    if root.get("type") != Some(&json!("object"))
        || root.get("additionalProperties") != Some(&Value::Bool(false))
    {
        return Err(bad(
            "the root must be {\"type\": \"object\", \"additionalProperties\": false}",
        ));
    }
    let properties = root
        .entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .ok_or_else(|| bad("properties is not an object"))?;
    if def.vault_arg {
        properties.insert(
            VAULT_ARG.to_owned(),
            json!({
                "type": "string",
                "description": "The vault id; default: the caller's vault, else the default vault.",
                "minLength": 1,
                "maxLength": 64
            }),
        );
    }
    if def.idempotency {
        properties.insert(
            IDEMPOTENCY_KEY_ARG.to_owned(),
            json!({
                "type": "string",
                "description": "Repeating a call with the same key returns the first result instead of acting again (24 h).",
                "minLength": 1,
                "maxLength": MAX_IDEMPOTENCY_KEY_CHARS
            }),
        );
    }
    for path_arg in def.path_args {
        if !properties.contains_key(path_arg.name) {
            return Err(bad(&format!(
                "path argument {} is not a property",
                path_arg.name
            )));
        }
    }
    Ok(())
}
