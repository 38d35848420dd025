//! [`ToolDef`]: what a tool declares; [`Tool`]: a registered tool with its parsed scopes and
//! the predicates every gate and every annotation derive from.

use engine_core::acl::{AclOp, Scope, ScopeFamily};
use serde::Serialize;
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::context::ToolContext;

/// The argument carrying a human's approval token; stripped before hashing and validation.
pub const ELICIT_TOKEN_ARG: &str = "elicit_token";

/// The argument naming the vault.
pub const VAULT_ARG: &str = "vault";

/// The argument carrying an idempotency key.
pub const IDEMPOTENCY_KEY_ARG: &str = "idempotency_key";

/// A tool's body: gets the context and the validated arguments (without the dispatch-owned
/// `vault`, `idempotency_key` and `elicit_token`), returns the structured result.
pub type Handler = fn(&ToolContext<'_>, Value) -> Result<Value, ToolError>;

/// A check run before the idempotency claim, the throttle and the HITL gate (a precheck
/// failure burns nothing). Gets the same arguments the handler would.
pub type Precheck = fn(&ToolContext<'_>, &Value) -> Result<(), ToolError>;

/// An argument that names a vault path, and the operation the tool performs on it; dispatch
/// checks the folder ACL on it before the handler runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathArg {
    /// The argument's name (a string property of the input schema).
    pub name: &'static str,
    /// What the tool does to that path.
    pub op: AclOp,
}

/// Everything a tool declares. The registry adds the dispatch-owned properties to
/// `input_schema`: `vault` when `vault_arg`, `idempotency_key` when `idempotency`.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// The snake_case, verb-first name.
    pub name: &'static str,
    /// A short human title.
    pub title: &'static str,
    /// What the tool does, for the model.
    pub description: &'static str,
    /// The facade domain (`admin`, `notes`, ...).
    pub domain: &'static str,
    /// The words people use for this tool's task that its name and description may not say
    /// (synonyms such as `rename` for moving a note, `trash` for deleting one):
    /// `find_capability` ranks by them; tools/list does not send them.
    pub keywords: &'static [&'static str],
    /// JSON Schema 2020-12 of the arguments: root `type: object`, `additionalProperties: false`.
    pub input_schema: Value,
    /// JSON Schema of the result, when declared.
    pub output_schema: Option<Value>,
    /// The scopes a caller needs (`family:resource`); empty for a scope-free tool.
    pub scopes: &'static [&'static str],
    /// Always needs a human's confirmation (HITL).
    pub destructive: bool,
    /// Takes an `idempotency_key`: a repeated key replays the first result.
    pub idempotency: bool,
    /// Takes the optional `vault` argument (every tool that touches one vault's content).
    pub vault_arg: bool,
    /// The arguments that are vault paths, with their operation.
    pub path_args: &'static [PathArg],
    /// An optional check before the policy gates.
    pub precheck: Option<Precheck>,
    /// The body.
    pub handler: Handler,
}

/// A tool's name, short title and description: what every tool declares first.
pub type Naming = (&'static str, &'static str, &'static str);

/// The JSON Schemas of a tool's arguments and (when declared) its result.
pub type Schemas = (Value, Option<Value>);

impl ToolDef {
    /// The tool `naming` of facade `domain` over one vault (it takes the optional `vault`),
    /// with the defaults the builder methods below change: no keywords, no scope, no path
    /// arguments, not destructive, no idempotency key, no precheck.
    pub fn new(
        (name, title, description): Naming,
        domain: &'static str,
        (input_schema, output_schema): Schemas,
        handler: Handler,
    ) -> ToolDef {
        ToolDef {
            name,
            title,
            description,
            domain,
            keywords: &[],
            input_schema,
            output_schema,
            scopes: &[],
            destructive: false,
            idempotency: false,
            vault_arg: true,
            path_args: &[],
            precheck: None,
            handler,
        }
    }

    /// A tool that needs no scope and changes nothing (see [`ToolDef::new`]). `vault_arg`
    /// says whether it takes the optional `vault`.
    pub fn scope_free(
        (name, title, domain): (&'static str, &'static str, &'static str),
        description: &'static str,
        schemas: Schemas,
        vault_arg: bool,
        handler: Handler,
    ) -> ToolDef {
        ToolDef {
            vault_arg,
            ..ToolDef::new((name, title, description), domain, schemas, handler)
        }
    }

    /// With the words `find_capability` also ranks it by.
    pub fn keywords(self, keywords: &'static [&'static str]) -> ToolDef {
        ToolDef { keywords, ..self }
    }

    /// Needing the scopes `scopes`.
    pub fn scopes(self, scopes: &'static [&'static str]) -> ToolDef {
        ToolDef { scopes, ..self }
    }

    /// With the vault-path arguments `path_args`.
    pub fn paths(self, path_args: &'static [PathArg]) -> ToolDef {
        ToolDef { path_args, ..self }
    }

    /// Taking an `idempotency_key` when `idempotency`.
    pub fn idempotent(self, idempotency: bool) -> ToolDef {
        ToolDef {
            idempotency,
            ..self
        }
    }

    /// Always confirmed by a human.
    pub fn destructive(self) -> ToolDef {
        ToolDef {
            destructive: true,
            ..self
        }
    }

    /// With `precheck` run before the policy gates.
    pub fn precheck(self, precheck: Precheck) -> ToolDef {
        ToolDef {
            precheck: Some(precheck),
            ..self
        }
    }
}

/// The MCP annotations of a tool, derived from the predicates the gates enforce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// No required scope is of a mutating family (write, delete, bulk, execute).
    pub read_only_hint: bool,
    /// The tool always goes through the HITL gate as destructive.
    pub destructive_hint: bool,
    /// Repeating the call has no further effect: read-only tools and keyed writes.
    pub idempotent_hint: bool,
    /// Every tool acts on the configured vaults only.
    pub open_world_hint: bool,
}

/// A registered tool: its declaration with the final input schema and parsed scopes.
#[derive(Debug, Clone)]
pub struct Tool {
    /// The declaration (`input_schema` includes the dispatch-owned properties).
    pub def: ToolDef,
    /// The parsed required scopes.
    pub scopes: Vec<Scope>,
}

impl Tool {
    /// The tool's name.
    pub fn name(&self) -> &'static str {
        self.def.name
    }

    /// Whether a required scope is of a mutating family: the read-only kill switch and the
    /// `readOnly` visibility profile refuse such a tool, and it is not `readOnlyHint`.
    pub fn is_mutating(&self) -> bool {
        self.scopes
            .iter()
            .any(|scope| scope.family().is_none_or(ScopeFamily::is_mutating))
    }

    /// Whether every call needs a human's confirmation: destructive, or a required scope on
    /// the HITL floor (families `execute` and `bulk`, scopes `admin:auth`, `write:templater`).
    pub fn needs_confirmation(&self) -> bool {
        self.def.destructive || self.scopes.iter().any(on_hitl_floor)
    }

    /// The annotations, derived from the same predicates the gates use.
    pub fn annotations(&self) -> Annotations {
        let read_only = !self.is_mutating();
        Annotations {
            read_only_hint: read_only,
            destructive_hint: self.def.destructive,
            idempotent_hint: read_only || self.def.idempotency,
            open_world_hint: false,
        }
    }
}

/// Whether holding a call to `scope` always needs a human (v1 §2.4 floor).
fn on_hitl_floor(scope: &Scope) -> bool {
    match scope.family() {
        None | Some(ScopeFamily::Execute | ScopeFamily::Bulk) => true,
        Some(ScopeFamily::Admin) => scope.resource() == Some("auth"),
        Some(ScopeFamily::Write) => scope.resource() == Some("templater"),
        Some(_) => false,
    }
}
