//! The root of the server configuration and its vault entries (camelCase JSON, as the original).

use engine_core::acl::AclConfig;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::config::acl_schema::AclConfigSchema;
use crate::config::bootstrap::BootstrapConfig;
use crate::config::inference::{InferenceConfig, KnowledgeConfig};
use crate::config::observability::ObservabilityConfig;
use crate::config::retrieval_log::RetrievalLogConfig;
use crate::config::sections::{
    AuthConfig, CompanionSetting, EmbeddingsConfig, GovernorConfig, IndexConfig, MaintenanceConfig,
    SearchConfig, ThrottleConfig, ToolFacadeConfig, ToolVisibilityConfig, TransportsConfig,
};
use crate::config::traces::TracesConfig;
use crate::config::wiki::WikiConfig;
use crate::config::work::WorkConfig;

/// The whole configuration of one obsidian-tc server (the file's root object).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[schemars(title = "obsidian-tc server configuration")]
pub struct ServerConfig {
    /// The vaults this server serves; the first one is the default vault unless
    /// `defaultVault` names another.
    pub vaults: Vec<VaultConfig>,
    /// The id of the default vault: the vault of a call that names none, and the one a JWT
    /// without a `vault` claim is bound to. Better set through `OBSIDIAN_TC_DEFAULT_VAULT`.
    /// An id that names no configured vault is ignored (with a warning): the first vault is
    /// the default then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_vault: Option<String>,
    /// The folder ACL of every vault that has no `acl` of its own (omitted: no ACL).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<AclConfigSchema>")]
    pub acl: Option<AclConfig>,
    /// How HTTP callers authenticate.
    pub auth: AuthConfig,
    /// The transports the server listens on.
    pub transports: TransportsConfig,
    /// The byte governor: limits on what one response may carry.
    pub governor: GovernorConfig,
    /// Which tools are listed, hidden or disabled.
    pub tool_visibility: ToolVisibilityConfig,
    /// How the tool catalog is presented to clients.
    pub tool_facade: ToolFacadeConfig,
    /// Per-caller token buckets by scope class.
    pub throttle: ThrottleConfig,
    /// How long a completed idempotency key replays its result, in seconds.
    #[schemars(range(min = 1))]
    pub idempotency_ttl_seconds: u64,
    /// After how many seconds an in-flight idempotency claim of a crashed call can be reclaimed.
    #[schemars(range(min = 1))]
    pub idempotency_reclaim_seconds: u64,
    /// How long a minted elicit (human approval) token stays valid, in seconds.
    #[schemars(range(min = 1))]
    pub elicit_ttl_seconds: u64,
    /// Where `cache.db` lives. Relative paths resolve against the config file's folder. The
    /// default is `.obsidian-tc` next to the config file; without a config file (a bare vault
    /// folder) it is the platform's cache folder, one folder per vault: Linux
    /// `~/.cache/obsidian-tc/vaults/<name>-<hash>` (`XDG_CACHE_HOME` is not read: MCP clients
    /// drop it from a server's environment), macOS
    /// `~/Library/Caches/obsidian-tc/vaults/<name>-<hash>`, Windows
    /// `%LOCALAPPDATA%\obsidian-tc\cache\vaults\<name>-<hash>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_dir: Option<String>,
    /// Keep the cache inside the (first) vault, in `<vault>/.obsidian-tc`, as earlier
    /// builds did. Off by default: sync tools (iCloud, Dropbox, Syncthing, git) that copy the
    /// vault carry the live database between devices and corrupt it. Not with `cacheDir`.
    pub cache_in_vault: bool,
    /// The embedding provider for semantic search.
    pub embeddings: EmbeddingsConfig,
    /// The background upkeep of the cache while serving.
    pub maintenance: MaintenanceConfig,
    /// Keeping the search index fresh while serving.
    pub index: IndexConfig,
    /// How search ranks notes.
    pub search: SearchConfig,
    /// The JSONL traces of sessions: rotation, retention, arguments.
    pub traces: TracesConfig,
    /// The work memory: episodes of each caller's tool calls, their arguments, retention.
    pub work: WorkConfig,
    /// Prometheus metrics and OpenTelemetry traces for the operator.
    pub observability: ObservabilityConfig,
    /// The log of ranked searches (what `record_retrieval_feedback` stamps).
    pub retrieval_log: RetrievalLogConfig,
    /// The language model of `reflect`, `knowledge_challenge` and the judges.
    pub inference: InferenceConfig,
    /// What the knowledge tools treat as decision-bearing.
    pub knowledge: KnowledgeConfig,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            vaults: Vec::new(),
            default_vault: None,
            acl: None,
            auth: AuthConfig::default(),
            transports: TransportsConfig::default(),
            governor: GovernorConfig::default(),
            tool_visibility: ToolVisibilityConfig::default(),
            tool_facade: ToolFacadeConfig::default(),
            throttle: ThrottleConfig::default(),
            idempotency_ttl_seconds: 86_400,
            idempotency_reclaim_seconds: 60,
            elicit_ttl_seconds: 300,
            cache_dir: None,
            cache_in_vault: false,
            embeddings: EmbeddingsConfig::default(),
            maintenance: MaintenanceConfig::default(),
            index: IndexConfig::default(),
            search: SearchConfig::default(),
            traces: TracesConfig::default(),
            work: WorkConfig::default(),
            observability: ObservabilityConfig::default(),
            retrieval_log: RetrievalLogConfig::default(),
            inference: InferenceConfig::default(),
            knowledge: KnowledgeConfig::default(),
        }
    }
}

/// One vault: an id callers name it by and the folder it lives in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VaultConfig {
    /// The id callers use in the `vault` argument (letters, digits, `-` and `_`).
    pub id: String,
    /// The vault folder; a relative path resolves against the config file's folder.
    pub path: String,
    /// This vault's folder ACL; it replaces the root `acl` for this vault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "Option<AclConfigSchema>")]
    pub acl: Option<AclConfig>,
    /// TC Bridge, the Obsidian plugin running in this vault, for the tools that need a live
    /// Obsidian: its address and token, or `false` for none. Absent, it is found through the
    /// plugin's settings file in the vault. Without one those tools are off and everything
    /// else works.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(with = "CompanionSetting")]
    pub companion: Option<CompanionSetting>,
    /// The folder `capture_note` writes quick captures into (default `Inbox`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inbox_folder: Option<String>,
    /// The folder agent memory keeps its entity notes in (default `Memory`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_folder: Option<String>,
    /// How a session starts in this vault: `session_bootstrap`'s routing table and the
    /// hand-off note (absent: no routing table, hand-off note `_next-session.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bootstrap: Option<BootstrapConfig>,
    /// The vault's wiki: the folder of its pages and of their raw sources (absent: the
    /// wiki tools look at the whole vault, and `commit_wiki_page` refuses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wiki: Option<WikiConfig>,
}

impl ServerConfig {
    /// The ACL that applies to `vault`: its own, else the root one.
    pub fn acl_for<'a>(&'a self, vault: &'a VaultConfig) -> Option<&'a AclConfig> {
        vault.acl.as_ref().or(self.acl.as_ref())
    }

    /// The default vault: the one `defaultVault` names when it names a configured vault,
    /// else the first (`None` without vaults).
    pub fn default_vault(&self) -> Option<&VaultConfig> {
        self.default_vault
            .as_deref()
            .and_then(|id| self.vaults.iter().find(|vault| vault.id == id))
            .or_else(|| self.vaults.first())
    }
}
