//! [`ToolContext`]: what a handler may use: its vault, the store, the caller, the call's
//! args hash, the clock, and conditional confirmation.

use std::cell::{Cell, OnceCell, RefCell};
use std::sync::Arc;

use engine_core::acl::AclOp;
use serde_json::Value;

use crate::auth::Caller;
use crate::config::VaultConfig;
use crate::errors::ToolError;
use crate::inference::Sampler;
use crate::runtime::approval::{Approval, ApprovalFor};
use crate::runtime::clock::Clock;
use crate::runtime::progress::Progress;
use crate::runtime::served::{Served, VaultEntry};
use crate::runtime::state::Runtime;
use crate::runtime::tool::Tool;
use crate::store::{ChangedFile, NewChange, Retrieval, Store, StoreError};
use crate::vault::{Exclusions, Vault};

/// The context of one tool call, built by dispatch after vault binding.
pub struct ToolContext<'d> {
    runtime: &'d Runtime,
    served: &'d Served,
    caller: &'d Caller,
    tool: &'d Tool,
    vault: &'d VaultEntry,
    args_hash: &'d str,
    approval: RefCell<Option<Approval>>,
    effect_started: Cell<bool>,
    progress: Option<&'d dyn Progress>,
    sampler: Option<&'d dyn Sampler>,
    exclusions: OnceCell<Arc<Exclusions>>,
    retrieval: RefCell<Option<Retrieval>>,
}

impl<'d> ToolContext<'d> {
    pub(crate) fn new(
        runtime: &'d Runtime,
        served: &'d Served,
        caller: &'d Caller,
        tool: &'d Tool,
        vault: &'d VaultEntry,
        args_hash: &'d str,
        approval: Option<Approval>,
    ) -> ToolContext<'d> {
        ToolContext {
            runtime,
            served,
            caller,
            tool,
            vault,
            args_hash,
            approval: RefCell::new(approval),
            effect_started: Cell::new(false),
            progress: None,
            sampler: None,
            exclusions: OnceCell::new(),
            retrieval: RefCell::new(None),
        }
    }

    /// This context, reporting the call's progress to `progress` when there is one.
    pub(crate) fn reporting_to(mut self, progress: Option<&'d dyn Progress>) -> ToolContext<'d> {
        self.progress = progress;
        self
    }

    /// This context, with the calling client's model when it offers sampling.
    pub(crate) fn sampling_with(mut self, sampler: Option<&'d dyn Sampler>) -> ToolContext<'d> {
        self.sampler = sampler;
        self
    }

    /// The calling MCP client's own model, when it declared `sampling` (see
    /// [`crate::inference`]).
    pub fn sampler(&self) -> Option<&'d dyn Sampler> {
        self.sampler
    }

    /// Reports how far a long call got (`done` of `total` units, with what is running) to the
    /// caller, when it asked for progress; otherwise does nothing.
    pub fn report_progress(&self, done: u64, total: Option<u64>, message: &str) {
        if let Some(progress) = self.progress {
            progress.report(done, total, message);
        }
    }

    /// The vault the call is bound to.
    pub fn vault(&self) -> &'d Vault {
        &self.vault.vault
    }

    /// The bound vault with its ACL.
    pub fn vault_entry(&self) -> &'d VaultEntry {
        self.vault
    }

    /// The bound vault's id.
    pub fn vault_id(&self) -> &'d str {
        &self.vault.id
    }

    /// The bound vault's entry in the configuration this call started with (its companion,
    /// inbox folder, ...).
    pub fn vault_config(&self) -> Option<&'d VaultConfig> {
        let id = self.vault_id();
        self.served
            .config()
            .config
            .vaults
            .iter()
            .find(|vault| vault.id == id)
    }

    /// The cache database.
    pub fn store(&self) -> &'d Store {
        &self.runtime.store
    }

    /// Who is calling.
    pub fn caller(&self) -> &'d Caller {
        self.caller
    }

    /// The folder ACL for this caller on a path the dispatch gate did not check (a list of
    /// paths, a listing, a destination being replaced): see [`VaultEntry::check_path`].
    pub fn check_path(&self, path: &str, op: AclOp) -> Result<(), ToolError> {
        self.vault.check_path(path, op, &self.caller.scopes)
    }

    /// Whether this caller may perform `op` on `path` (a decision without an error: a link
    /// target, a note a change touches; listings and results use [`ToolContext::may_list`]).
    pub fn may(&self, path: &str, op: AclOp) -> bool {
        self.check_path(path, op).is_ok()
    }

    /// Whether `path` may appear in a listing, a search result, a count or any other ranked
    /// or listed result: the caller may read it and it is not an excluded file (Obsidian's
    /// "Excluded files", `index.exclude`). A path named directly is decided by the ACL alone.
    pub fn may_list(&self, path: &str) -> bool {
        let exclusions = self.exclusions();
        (exclusions.is_empty() || !exclusions.is_excluded(path)) && self.may(path, AclOp::Read)
    }

    /// The bound vault's excluded files, read once per call.
    pub fn exclusions(&self) -> Arc<Exclusions> {
        Arc::clone(self.exclusions.get_or_init(|| self.vault.exclusions()))
    }

    /// Whether this caller may read every note of the bound vault (see
    /// [`VaultEntry::reads_everything`]): a result that names no note is shown only then.
    pub fn reads_everything(&self) -> bool {
        self.vault.reads_everything(&self.caller.scopes)
    }

    /// The key naming which notes this caller may list in the bound vault (see
    /// [`VaultEntry::read_view_key`]), the excluded files included in it.
    pub fn read_view_key(&self) -> String {
        format!(
            "{}\nexcluded:{}",
            self.vault.read_view_key(&self.caller.scopes),
            self.exclusions().fingerprint()
        )
    }

    /// The tool being called.
    pub fn tool(&self) -> &'d Tool {
        self.tool
    }

    /// The call's args hash (what approvals and idempotency keys are bound to).
    pub fn args_hash(&self) -> &'d str {
        self.args_hash
    }

    /// The time source.
    pub fn clock(&self) -> &'d dyn Clock {
        self.runtime.clock.as_ref()
    }

    /// The configuration, tools and vaults this call started with (a reload during the call
    /// does not change them).
    pub fn served(&self) -> &'d Served {
        self.served
    }

    /// The state every call shares (store, indexes, companions; admin tools report on it).
    pub fn runtime(&self) -> &'d Runtime {
        self.runtime
    }

    /// Conditional confirmation: passes when the call carries a valid `elicit_token` or the
    /// user's confirmation, or a human approved this args hash (consumed, single use); otherwise records the request
    /// with `proposed_change` and returns `elicit_required`. Call it before changing anything.
    pub fn confirm(&self, proposed_change: Value) -> Result<(), ToolError> {
        let call = ApprovalFor {
            vault_id: self.vault_id(),
            tool: self.tool.name(),
            args_hash: self.args_hash,
            caller: &self.caller.id,
        };
        self.runtime
            .obtain_approval(&call, self.take_approval(), proposed_change)
    }

    /// Keeps `files` as they were before this call: one change of this call's tool and
    /// caller, under the per-note retention (`maintenance.snapshotsPerNote`); returns the new
    /// snapshots' ids in the order of `files`.
    pub fn keep_snapshots(&self, files: Vec<ChangedFile<'_>>) -> Result<Vec<i64>, StoreError> {
        if files.is_empty() {
            return Ok(Vec::new());
        }
        let change_id = crate::store::new_change_id()?;
        self.store().snapshots().record(&NewChange {
            vault_id: self.vault_id(),
            change_id: &change_id,
            caller: &self.caller.id,
            tool: self.tool.name(),
            now: self.clock().now_seconds(),
            files,
            keep_per_path: self.served.config().config.maintenance.snapshots_per_note,
        })
    }

    /// Declares that a change may have reached the vault: if the handler then fails, its
    /// idempotency key is recorded `indeterminate` (never run again) instead of released.
    pub fn mark_effect_started(&self) {
        self.effect_started.set(true);
    }

    /// Whether the handler declared a possible effect.
    pub(crate) fn effect_started(&self) -> bool {
        self.effect_started.get()
    }

    /// Reports what this call's ranked search returned, for the retrieval log: dispatch logs
    /// it once the call has answered (a later report replaces an earlier one).
    pub fn report_retrieval(&self, retrieval: Retrieval) {
        *self.retrieval.borrow_mut() = Some(retrieval);
    }

    /// Takes what the handler reported with [`ToolContext::report_retrieval`].
    pub(crate) fn take_retrieval(&self) -> Option<Retrieval> {
        self.retrieval.borrow_mut().take()
    }

    /// Takes the call's approval (for the HITL gate): it serves one confirmation.
    pub(crate) fn take_approval(&self) -> Option<Approval> {
        self.approval.borrow_mut().take()
    }
}
