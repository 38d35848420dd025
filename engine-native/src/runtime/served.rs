//! [`Served`]: what one call sees of a server that a reload can change — the configuration,
//! the tools with their visibility, and the vaults, each [`VaultEntry`] with its compiled
//! folder ACL.

use std::fmt;
use std::sync::Arc;

use engine_core::acl::{
    AclConfig, AclConfigError, AclOp, AclPolicy, CaseMode, Glob, Scope, satisfies_all,
};

use crate::auth::Caller;
use crate::config::{LoadedConfig, ServerConfig, VaultConfig};
use crate::errors::ToolError;
use crate::runtime::registry::{Registry, RegistryError};
use crate::store::StoreError;
use crate::vault::{ExclusionCache, Exclusions, Vault, VaultError, VaultOptions};
use crate::vault_cache::VaultCacheError;

/// The glob case mode of ACLs on this platform: case-insensitive where the usual filesystem
/// is (macOS, Windows), exact elsewhere.
const ACL_CASE_MODE: CaseMode = if cfg!(any(target_os = "macos", target_os = "windows")) {
    CaseMode::Insensitive
} else {
    CaseMode::Sensitive
};

/// One served vault: its handle and its compiled folder ACL.
#[derive(Debug)]
pub struct VaultEntry {
    /// The vault id callers name it by.
    pub id: String,
    /// The filesystem backend.
    pub vault: Vault,
    /// The compiled ACL (an empty policy when none is configured: only hard-deny applies).
    pub policy: AclPolicy,
    /// Whether an ACL is configured for this vault (its own or the root one).
    pub acl_configured: bool,
    /// The ACL's read-only kill switch.
    pub read_only: bool,
    /// The ACL as configured (JSON), which with a caller's scopes names what the caller may
    /// read: the key of its kept search statistics (see [`VaultEntry::read_view_key`]).
    acl_source: String,
    /// The files left out of listings and search (Obsidian's "Excluded files",
    /// `index.exclude`), read again as they change.
    exclusions: ExclusionCache,
    /// What may keep a caller from reading a note (see [`VaultEntry::reads_everything`]).
    read_bounds: ReadBounds,
}

/// What in a vault's ACL may deny a read: a read whitelist (or the strict read default), or
/// the scopes its rules and `defaultScopes` require on some path.
#[derive(Debug, Default)]
struct ReadBounds {
    /// `readPaths` is given, or `strictReadDefault` closes reads without it.
    listed: bool,
    /// Every scope a rule or `defaultScopes` requires.
    scopes: Vec<Scope>,
}

impl ReadBounds {
    /// The bounds of `config` (whose scopes compiled, so each parses).
    fn of(config: &AclConfig) -> ReadBounds {
        let scopes = config
            .default_scopes
            .iter()
            .chain(config.rules.iter().flat_map(|rule| &rule.scopes))
            .filter_map(|text| Scope::parse(text).ok())
            .collect();
        ReadBounds {
            listed: config.read_paths.is_some() || config.strict_read_default,
            scopes,
        }
    }
}

impl VaultEntry {
    /// A key that names which notes a caller granted `granted` may read in this vault: equal
    /// keys mean equal read decisions on every path (same ACL, same scopes), so per-caller
    /// search statistics are kept under it. A reload with another ACL gives another key.
    pub fn read_view_key(&self, granted: &[engine_core::acl::Scope]) -> String {
        let scopes: Vec<String> = granted.iter().map(ToString::to_string).collect();
        format!("{}\n{}", self.acl_source, scopes.join(" "))
    }

    /// The files this vault's listings, search results and counts leave out now (see
    /// [`ExclusionCache::current`]).
    pub fn exclusions(&self) -> Arc<Exclusions> {
        self.exclusions.current(&self.vault)
    }

    /// Whether a caller granted `granted` may read every note of this vault: no read whitelist
    /// and every scope a rule may require granted (only the hard-denied control folders,
    /// which hold no notes, stay closed). A result naming no note may be shown only then.
    pub fn reads_everything(&self, granted: &[Scope]) -> bool {
        !self.read_bounds.listed && satisfies_all(granted, &self.read_bounds.scopes)
    }

    /// The folder ACL on one path: `Ok` when `granted` may perform `op` on `path`, else
    /// `acl_denied`, `read_only_mode` or `path_invalid`. The one check behind gate 8 and
    /// every tool that meets paths the gate does not see (lists, listings, destinations).
    pub fn check_path(
        &self,
        path: &str,
        op: AclOp,
        granted: &[engine_core::acl::Scope],
    ) -> Result<(), ToolError> {
        let decision = self.policy.evaluate(path, op, granted);
        if decision.allowed {
            Ok(())
        } else {
            Err(ToolError::from_acl_denial(path, &decision))
        }
    }
}

/// Why the server could not start.
#[derive(Debug)]
pub enum StartError {
    /// The cache database could not be opened.
    Store(StoreError),
    /// A vault folder could not be opened.
    Vault {
        /// The vault id.
        id: String,
        /// Why.
        error: VaultError,
    },
    /// A vault's ACL does not compile (the config loader normally catches this first).
    Acl {
        /// The vault id.
        id: String,
        /// Why.
        error: AclConfigError,
    },
    /// A tool declaration is wrong.
    Registry(RegistryError),
    /// The zero-config cache folder could not be placed.
    Cache(VaultCacheError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Store(error) => write!(f, "cannot open the cache database: {error}"),
            StartError::Vault { id, error } => write!(f, "cannot open vault {id:?}: {error}"),
            StartError::Acl { id, error } => write!(f, "the ACL of vault {id:?}: {error:?}"),
            StartError::Registry(error) => write!(f, "cannot register the tools: {error}"),
            StartError::Cache(error) => write!(f, "cannot place the cache folder: {error}"),
        }
    }
}

impl std::error::Error for StartError {}

/// What one call sees of a server that a reload can change: the configuration, the tools
/// with their visibility rules, and the vaults. A call takes one `Served` when it starts and
/// keeps it to the end, so a reload never changes a call in flight.
#[derive(Debug)]
pub struct Served {
    pub(crate) config: Arc<LoadedConfig>,
    pub(crate) registry: Arc<Registry>,
    vaults: Vec<VaultEntry>,
}

impl Served {
    /// What `config` describes with the tools of `registry`, its vaults opened.
    pub(crate) fn open(config: LoadedConfig, registry: Registry) -> Result<Served, StartError> {
        let vaults = open_vaults(&config.config)?;
        if let Some(named) = config.config.default_vault.as_deref()
            && !config.config.vaults.iter().any(|vault| vault.id == named)
        {
            tracing::warn!(
                default_vault = named,
                "defaultVault (OBSIDIAN_TC_DEFAULT_VAULT) names no configured vault; the first \
                 vault is the default"
            );
        }
        Ok(Served {
            config: Arc::new(config),
            registry: Arc::new(registry),
            vaults,
        })
    }

    /// The effective configuration.
    pub fn config(&self) -> &LoadedConfig {
        &self.config
    }

    /// The registered tools and the visibility rules.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The served vaults, in config order.
    pub fn vaults(&self) -> &[VaultEntry] {
        &self.vaults
    }

    /// The one vault `caller` is bound to, or `None` when it may use every vault: a token's
    /// `vault` claim; for a JWT without one, the default vault (unless
    /// `auth.unboundTokensAllVaults`); nothing for stdio, the command line and local HTTP
    /// callers.
    pub fn binding_of<'a>(&'a self, caller: &'a Caller) -> Option<&'a str> {
        match caller.vault_binding.as_deref() {
            Some(bound) => Some(bound),
            None if caller.token_without_vault
                && !self.config.config.auth.unbound_tokens_all_vaults =>
            {
                // No vault at all binds it to a name no vault has: it reaches none.
                Some(self.default_vault().map_or("", |entry| entry.id.as_str()))
            }
            None => None,
        }
    }

    /// The vaults `caller` may see: its bound vault only, or all.
    pub fn vaults_for<'a>(&'a self, caller: &'a Caller) -> impl Iterator<Item = &'a VaultEntry> {
        let bound = self.binding_of(caller);
        self.vaults
            .iter()
            .filter(move |entry| bound.is_none_or(|bound| bound == entry.id))
    }

    /// The vault with id `id`.
    pub fn vault(&self, id: &str) -> Option<&VaultEntry> {
        self.vaults.iter().find(|entry| entry.id == id)
    }

    /// The default vault: the one `defaultVault` (`OBSIDIAN_TC_DEFAULT_VAULT`) names when it
    /// names a served vault, else the first.
    pub fn default_vault(&self) -> Option<&VaultEntry> {
        let id = self.config.config.default_vault()?.id.as_str();
        self.vault(id)
    }

    /// Whether `id` is the default vault.
    pub fn is_default_vault(&self, id: &str) -> bool {
        self.default_vault().is_some_and(|entry| entry.id == id)
    }
}

/// Opens every vault of `server` with its compiled ACL (its own, else the root one; the
/// hard-link guard is on when there is one).
fn open_vaults(server: &ServerConfig) -> Result<Vec<VaultEntry>, StartError> {
    server
        .vaults
        .iter()
        .map(|vault| open_vault(server, vault))
        .collect()
}

fn open_vault(server: &ServerConfig, vault: &VaultConfig) -> Result<VaultEntry, StartError> {
    let acl = server.acl_for(vault);
    let options = VaultOptions {
        hard_link_guard: acl.is_some(),
        calls_only: true,
    };
    let handle = Vault::open(std::path::Path::new(&vault.path), options).map_err(|error| {
        StartError::Vault {
            id: vault.id.clone(),
            error,
        }
    })?;
    let acl_config = acl.cloned().unwrap_or_else(AclConfig::default);
    let policy =
        AclPolicy::compile_for(&acl_config, ACL_CASE_MODE).map_err(|error| StartError::Acl {
            id: vault.id.clone(),
            error,
        })?;
    Ok(VaultEntry {
        id: vault.id.clone(),
        vault: handle,
        policy,
        acl_configured: acl.is_some(),
        read_only: acl_config.read_only,
        acl_source: serde_json::to_string(&acl_config).unwrap_or_default(),
        exclusions: ExclusionCache::new(
            server.index.obsidian_excluded_files,
            exclude_globs(server),
        ),
        read_bounds: ReadBounds::of(&acl_config),
    })
}

/// The `index.exclude` globs, compiled for this platform's case mode (the config checks
/// refused any that does not compile).
fn exclude_globs(server: &ServerConfig) -> Vec<Glob> {
    server
        .index
        .exclude
        .iter()
        .filter_map(|glob| Glob::compile(glob, ACL_CASE_MODE).ok())
        .collect()
}
