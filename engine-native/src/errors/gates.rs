//! Constructors for the errors of the dispatch pipeline's gates, each with the details the
//! reference specifies (`shared/reference/obsidian-tc-v1.md` §2).

use engine_core::acl::{AclOp, Decision, DenyReason, PathError, Scope, missing_scopes};
use serde_json::json;

use crate::errors::{ErrorCode, ToolError};

impl ToolError {
    /// `not_found` for a tool that is unregistered or hidden from the caller; the two are
    /// deliberately indistinguishable. Details: `name`.
    pub fn tool_not_found(name: &str) -> ToolError {
        ToolError::new(ErrorCode::NotFound, format!("no tool named '{name}'"))
            .with_details(json!({ "name": name }))
    }

    /// `forbidden`: the caller's scopes do not cover the tool's. Details: `required` (all the
    /// tool's scopes) and `missing` (those `granted` does not satisfy).
    pub fn forbidden_scopes(required: &[Scope], granted: &[Scope]) -> ToolError {
        let missing = missing_scopes(granted, required);
        let names: Vec<String> = missing.iter().map(Scope::to_string).collect();
        ToolError::new(
            ErrorCode::Forbidden,
            format!("missing required scope(s): {}", names.join(", ")),
        )
        .with_details(json!({ "required": required, "missing": missing }))
    }

    /// `forbidden`: a caller bound to one vault named another. Details: `bound_vault`, `vault`.
    pub fn forbidden_vault(bound_vault: &str, vault: &str) -> ToolError {
        ToolError::new(
            ErrorCode::Forbidden,
            format!("this caller is bound to vault '{bound_vault}' and may not use vault '{vault}'"),
        )
        .with_details(json!({ "bound_vault": bound_vault, "vault": vault }))
        .with_recovery(format!(
            "do not retry; call again with vault '{bound_vault}' or ask the user for a token for '{vault}'"
        ))
    }

    /// `forbidden`: the read-only kill switch refused a mutating tool. Details: `vault`,
    /// `read_only: true`.
    pub fn forbidden_read_only(vault: &str) -> ToolError {
        ToolError::new(
            ErrorCode::Forbidden,
            format!("vault '{vault}' is read-only"),
        )
        .with_details(json!({ "vault": vault, "read_only": true }))
        .with_recovery(ErrorCode::ReadOnlyMode.default_recovery())
    }

    /// `path_invalid`: `path` failed validation for `reason`. Details: `path`, `reason`.
    pub fn path_invalid(path: &str, reason: PathError) -> ToolError {
        ToolError::new(
            ErrorCode::PathInvalid,
            format!("'{path}' is not a valid vault path ({reason})"),
        )
        .with_details(json!({ "path": path, "reason": reason }))
    }

    /// `acl_denied`: the folder ACL refuses `op` on `path`. Details: `path`, `op`.
    pub fn acl_denied(path: &str, op: AclOp) -> ToolError {
        ToolError::new(
            ErrorCode::AclDenied,
            format!("the folder ACL does not allow {} on '{path}'", op_name(op)),
        )
        .with_details(json!({ "path": path, "op": op }))
    }

    /// `read_only_mode`: a write or delete on `path` while the vault's ACL is read-only.
    /// Details: `path`, `op`.
    pub fn read_only_mode(path: &str, op: AclOp) -> ToolError {
        ToolError::new(
            ErrorCode::ReadOnlyMode,
            format!(
                "the vault is read-only: {} on '{path}' refused",
                op_name(op)
            ),
        )
        .with_details(json!({ "path": path, "op": op }))
    }

    /// The error for a denied folder-ACL [`Decision`] on `requested_path` (the path as the
    /// caller wrote it): `path_invalid`, `read_only_mode`, or `acl_denied` whose details also
    /// carry `denied_by` and, for a rule's scopes, `missing`.
    pub fn from_acl_denial(requested_path: &str, decision: &Decision) -> ToolError {
        let path = decision.path.as_deref().unwrap_or(requested_path);
        match (decision.denied_by, decision.path_error) {
            (Some(DenyReason::PathInvalid), Some(reason)) => {
                ToolError::path_invalid(requested_path, reason)
            }
            (Some(DenyReason::ReadOnly), _) => ToolError::read_only_mode(path, decision.op),
            (denied_by, _) => {
                let mut error = ToolError::acl_denied(path, decision.op);
                error.details["denied_by"] = json!(denied_by);
                if !decision.missing_scopes.is_empty() {
                    error.details["missing"] = json!(decision.missing_scopes);
                }
                error
            }
        }
    }

    /// `idempotency_in_flight`: another call with `key` is still running. Details: `key`.
    pub fn idempotency_in_flight(key: &str) -> ToolError {
        ToolError::new(
            ErrorCode::IdempotencyInFlight,
            format!("a call with idempotency_key '{key}' is still running"),
        )
        .with_details(json!({ "key": key }))
    }

    /// `idempotency_key_mismatch`: `key` was first used by `first_tool` with other
    /// arguments. Details: `key`, `first_tool`.
    pub fn idempotency_key_mismatch(key: &str, first_tool: &str) -> ToolError {
        ToolError::new(
            ErrorCode::IdempotencyKeyMismatch,
            format!(
                "idempotency_key '{key}' was already used by {first_tool} with other arguments"
            ),
        )
        .with_details(json!({ "key": key, "first_tool": first_tool }))
    }

    /// `elicit_required`: `tool` needs a human's confirmation of the call whose hash is
    /// `args_hash`. Details: `args_hash`, `tool`, `proposed_change`. No token is ever minted
    /// into the error: only the user can approve, out of band.
    pub fn elicit_required(
        args_hash: &str,
        tool: &str,
        proposed_change: serde_json::Value,
    ) -> ToolError {
        ToolError::new(
            ErrorCode::ElicitRequired,
            format!("{tool} needs the user's confirmation before it runs"),
        )
        .with_details(json!({
            "args_hash": args_hash,
            "tool": tool,
            "proposed_change": proposed_change,
        }))
        .with_recovery(format!(
            "ask the user to approve with `obsidian-tc elicit approve {args_hash}` and call again with the same arguments"
        ))
    }

    /// `overflow`: the response is `size` bytes, over the `limit`. Details: `size`, `limit`,
    /// `hint`.
    pub fn overflow(size: usize, limit: usize) -> ToolError {
        ToolError::new(
            ErrorCode::Overflow,
            format!("the response is {size} bytes, over the limit of {limit} bytes"),
        )
        .with_details(json!({
            "size": size,
            "limit": limit,
            "hint": ErrorCode::Overflow.default_recovery(),
        }))
    }

    /// `internal`: a fault inside the server, described by `message`.
    pub fn internal(message: impl Into<String>) -> ToolError {
        ToolError::new(ErrorCode::Internal, message)
    }
}

fn op_name(op: AclOp) -> &'static str {
    match op {
        AclOp::Read => "read",
        AclOp::Write => "write",
        AclOp::Delete => "delete",
    }
}
