//! The error codes a tool call can fail with, each with its wire name, whether retrying the
//! same call can succeed, and what the agent should do next.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A tool error code. The wire name is the snake_case string of [`ErrorCode::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The tool, vault, note or other named thing does not exist (or is hidden from the caller).
    NotFound,
    /// The arguments do not match the tool's input schema.
    ValidationError,
    /// The call needs an authenticated caller and has none.
    Unauthorized,
    /// The caller lacks a required scope, is bound to another vault, or the vault is read-only.
    Forbidden,
    /// A path operation that would change a vault whose ACL is read-only.
    ReadOnlyMode,
    /// The folder ACL does not allow this operation on this path.
    AclDenied,
    /// The path is not a valid vault-relative path (absolute, `..`, control characters...).
    PathInvalid,
    /// The call needs a human's confirmation first.
    ElicitRequired,
    /// The confirmation token is unknown, expired, already used or bound to another call.
    ElicitInvalid,
    /// The user declined to confirm the call; nothing changed.
    Aborted,
    /// A call with the same idempotency key is still running.
    IdempotencyInFlight,
    /// The idempotency key was already used for a different tool or different arguments.
    IdempotencyKeyMismatch,
    /// The call may or may not have taken effect (a fault after the change began).
    Indeterminate,
    /// The caller exceeded the rate limit of the call's scope class.
    Throttled,
    /// The response is larger than `governor.maxResponseBytes`.
    Overflow,
    /// The regex or query exceeded its compute budget (time or operation count).
    ComputeBudgetExceeded,
    /// The note changed since the caller read it (`expected_sha256` is stale).
    ConcurrentModification,
    /// The target already exists and the call does not overwrite.
    AlreadyExists,
    /// The arguments are well-formed but not acceptable (out of range, contradictory...).
    InvalidInput,
    /// The edit's target (a string, a heading, a block id) matches more than one place.
    Ambiguous,
    /// A line range that the note does not have (empty, starting at 0 or past the end).
    InvalidRange,
    /// A fault inside the server.
    Internal,
    /// The embedding provider (a local model or a remote API) failed or is misconfigured.
    EmbeddingProviderError,
    /// The vault's search index is being built by a scan that is still running (another
    /// `index_vault`, the scan at start, the watcher's); the call changed nothing.
    IndexBusy,
    /// Another program (an antivirus scanner, a sync client, a search indexer) held the file
    /// open without sharing it for longer than the vault waits (Windows); nothing was changed.
    FileBusy,
    /// The call needs TC Bridge (the companion Obsidian plugin) or a plugin behind it, and
    /// the vault has none configured or the plugin is not installed.
    PluginMissing,
    /// TC Bridge is configured but could not carry the call (Obsidian closed, plugin
    /// disabled, or a server that cannot forward this call to it yet).
    PluginUnreachable,
    /// TC Bridge speaks another major version of the Companion API than this server.
    PluginIncompatible,
    /// A `.base` file uses a filter, formula or view construct outside the supported subset.
    UnsupportedBaseFilter,
    /// A bulk call changed some items and failed on others; `details.results` says which.
    BulkPartial,
    /// The vault's git repository could not do it: no repository holds the vault, nothing
    /// is staged, files outside the vault are staged, a merge conflict, a locked index
    /// (`details.reason` says which).
    GitError,
    /// The tool exists but the server's tool profile (`toolVisibility.profile`) leaves it
    /// out: not listed and not callable; `details.config_key` names the setting.
    CapabilityHidden,
    /// The language model could not answer (the endpoint timed out, answered an HTTP error
    /// or text that is not what was asked, the client refused to sample) or its call limits
    /// for the request or the day are used up; `details.reason` says which.
    ModelError,
}

impl ErrorCode {
    /// Every code, in declaration order.
    pub const ALL: [ErrorCode; 33] = [
        ErrorCode::NotFound,
        ErrorCode::ValidationError,
        ErrorCode::Unauthorized,
        ErrorCode::Forbidden,
        ErrorCode::ReadOnlyMode,
        ErrorCode::AclDenied,
        ErrorCode::PathInvalid,
        ErrorCode::ElicitRequired,
        ErrorCode::ElicitInvalid,
        ErrorCode::Aborted,
        ErrorCode::IdempotencyInFlight,
        ErrorCode::IdempotencyKeyMismatch,
        ErrorCode::Indeterminate,
        ErrorCode::Throttled,
        ErrorCode::Overflow,
        ErrorCode::ComputeBudgetExceeded,
        ErrorCode::ConcurrentModification,
        ErrorCode::AlreadyExists,
        ErrorCode::InvalidInput,
        ErrorCode::Ambiguous,
        ErrorCode::InvalidRange,
        ErrorCode::Internal,
        ErrorCode::EmbeddingProviderError,
        ErrorCode::IndexBusy,
        ErrorCode::FileBusy,
        ErrorCode::PluginMissing,
        ErrorCode::PluginUnreachable,
        ErrorCode::PluginIncompatible,
        ErrorCode::UnsupportedBaseFilter,
        ErrorCode::BulkPartial,
        ErrorCode::GitError,
        ErrorCode::CapabilityHidden,
        ErrorCode::ModelError,
    ];

    /// The wire name, e.g. `"acl_denied"` (the same string serde writes).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotFound => "not_found",
            ErrorCode::ValidationError => "validation_error",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::ReadOnlyMode => "read_only_mode",
            ErrorCode::AclDenied => "acl_denied",
            ErrorCode::PathInvalid => "path_invalid",
            ErrorCode::ElicitRequired => "elicit_required",
            ErrorCode::ElicitInvalid => "elicit_invalid",
            ErrorCode::Aborted => "aborted",
            ErrorCode::IdempotencyInFlight => "idempotency_in_flight",
            ErrorCode::IdempotencyKeyMismatch => "idempotency_key_mismatch",
            ErrorCode::Indeterminate => "indeterminate",
            ErrorCode::Throttled => "throttled",
            ErrorCode::Overflow => "overflow",
            ErrorCode::ComputeBudgetExceeded => "compute_budget_exceeded",
            ErrorCode::ConcurrentModification => "concurrent_modification",
            ErrorCode::AlreadyExists => "already_exists",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Ambiguous => "ambiguous",
            ErrorCode::InvalidRange => "invalid_range",
            ErrorCode::Internal => "internal",
            ErrorCode::EmbeddingProviderError => "embedding_provider_error",
            ErrorCode::IndexBusy => "index_busy",
            ErrorCode::FileBusy => "file_busy",
            ErrorCode::PluginMissing => "plugin_missing",
            ErrorCode::PluginUnreachable => "plugin_unreachable",
            ErrorCode::PluginIncompatible => "plugin_incompatible",
            ErrorCode::UnsupportedBaseFilter => "unsupported_base_filter",
            ErrorCode::BulkPartial => "bulk_partial",
            ErrorCode::GitError => "git_error",
            ErrorCode::CapabilityHidden => "capability_hidden",
            ErrorCode::ModelError => "model_error",
        }
    }

    /// Whether repeating the same call, unchanged, can succeed: after a wait (`throttled`,
    /// `idempotency_in_flight`, `index_busy` once the scan is done, `file_busy` once the other
    /// program lets the file go, `embedding_provider_error`
    /// once the provider is back,
    /// `plugin_unreachable` once Obsidian runs TC Bridge, `model_error` once the model is
    /// back or the day's calls renew) or after
    /// re-reading (`concurrent_modification`). Every other code needs different arguments or a
    /// human first.
    pub fn default_retryable(self) -> bool {
        matches!(
            self,
            ErrorCode::Throttled
                | ErrorCode::IdempotencyInFlight
                | ErrorCode::ConcurrentModification
                | ErrorCode::EmbeddingProviderError
                | ErrorCode::IndexBusy
                | ErrorCode::FileBusy
                | ErrorCode::PluginUnreachable
                | ErrorCode::ModelError
        )
    }

    /// What the agent should do next, chosen by the code alone. Constructors that know more
    /// (the wait, the args hash) put a concrete version in [`crate::errors::ToolError::recovery`].
    pub fn default_recovery(self) -> &'static str {
        match self {
            ErrorCode::NotFound => {
                "check the name or path (list the vault or the tools to see what exists), then call again"
            }
            ErrorCode::ValidationError => {
                "fix the arguments listed in details to match the tool's input schema, then call again"
            }
            ErrorCode::Unauthorized => {
                "connect with a valid bearer token; this tool is not available to anonymous callers"
            }
            ErrorCode::Forbidden => {
                "do not retry; ask the user for a token with the scopes in details.required, or for access to this vault"
            }
            ErrorCode::ReadOnlyMode => {
                "do not retry; the vault is read-only, ask the user to lift acl.readOnly if the change is intended"
            }
            ErrorCode::AclDenied => {
                "do not retry on this path; choose a path the folder ACL allows, or ask the user to change the ACL"
            }
            ErrorCode::PathInvalid => {
                "use a vault-relative path without '..', a leading '/', or control characters"
            }
            ErrorCode::ElicitRequired => {
                "ask the user to approve with `obsidian-tc elicit approve <args_hash>` and call again with the same arguments"
            }
            ErrorCode::ElicitInvalid => {
                "the confirmation is expired, used or for other arguments; call without it to get a fresh args_hash and ask the user again"
            }
            ErrorCode::Aborted => {
                "do not retry; the user declined this change, ask them what they want instead"
            }
            ErrorCode::IdempotencyInFlight => {
                "wait a few seconds, then retry with the same idempotency_key to get the result"
            }
            ErrorCode::IdempotencyKeyMismatch => {
                "use a new idempotency_key for a different call; a key belongs to one tool and one set of arguments"
            }
            ErrorCode::Indeterminate => {
                "do not retry blindly; read the target to see whether the change happened, then decide"
            }
            ErrorCode::Throttled => "wait retry_after_seconds, then retry",
            ErrorCode::Overflow => {
                "ask for less: a narrower range, a smaller limit, or read the note by section"
            }
            ErrorCode::ComputeBudgetExceeded => {
                "simplify the pattern or query (avoid nested repetition) or narrow its scope, then call again"
            }
            ErrorCode::ConcurrentModification => {
                "read the note again to get its current sha256, reapply the change, then retry"
            }
            ErrorCode::AlreadyExists => {
                "choose another name, or call again with an overwrite mode if replacing is intended"
            }
            ErrorCode::InvalidInput => "change the arguments as the message says, then call again",
            ErrorCode::Ambiguous => {
                "name the target so that it matches one place: include more surrounding text, or a heading path such as 'Parent#Child' (details.candidates lists the matches)"
            }
            ErrorCode::InvalidRange => {
                "read the note to see how many lines it has, then give 1 <= start <= end with start within the note"
            }
            ErrorCode::Internal => {
                "report this to the user; the server logged the fault, retrying the same call is unlikely to help"
            }
            ErrorCode::EmbeddingProviderError => {
                "retry later if the provider was unreachable or busy; otherwise ask the user to fix the embeddings config (model folder, endpoint, API key) as the message says, or use a search mode without embeddings"
            }
            ErrorCode::IndexBusy => {
                "nothing was changed; wait a few seconds for the running scan (get_index_status shows its progress), then call again"
            }
            ErrorCode::FileBusy => {
                "nothing was changed; another program has the file open, retry in a few seconds"
            }
            ErrorCode::PluginMissing => {
                "ask the user to install and enable TC Bridge in Obsidian (and the plugin the call needs, such as Dataview) and to set the vault's companion url and token; meanwhile use a tool or search mode that works without Obsidian"
            }
            ErrorCode::PluginUnreachable => {
                "retry later, once Obsidian is open with TC Bridge enabled; `obsidian-tc doctor` tells whether it is reachable; meanwhile use a tool or search mode that works without Obsidian"
            }
            ErrorCode::PluginIncompatible => {
                "ask the user to update TC Bridge and obsidian-tc to versions that speak the same Companion API, then call refresh_plugin_capabilities"
            }
            ErrorCode::UnsupportedBaseFilter => {
                "rewrite the construct named in details (details.location says where) with the supported functions and fields, or open the base in Obsidian"
            }
            ErrorCode::BulkPartial => {
                "do not repeat the whole call; read details.results, fix the failed items and send only those again"
            }
            ErrorCode::GitError => {
                "do not retry unchanged; do what the message says (details.reason names the cause), with git outside the server when it concerns files outside the vault"
            }
            ErrorCode::CapabilityHidden => {
                "do not retry; use a listed tool for the task (find_capability), or ask the user to set toolVisibility.profile to \"full\" in the config file and call reload_vault"
            }
            ErrorCode::ModelError => {
                "retry later when the model timed out or was unreachable (details.reason); a used-up day's limit renews at midnight UTC; otherwise ask the user to check the inference config (endpoint, model, API key variable)"
            }
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
