//! The server configuration: one JSON file (schema published at `schema/config.schema.json`)
//! or zero-config from a bare vault folder, overridden by `OBSIDIAN_TC_*` environment
//! variables and then by command-line flags.
//!
//! [`load()`] is pure: it reads only its [`LoadInput`]. It reports every problem at once, each
//! with its JSON path, and records where each effective value came from ([`Provenance`]).

pub mod acl_schema;
pub mod add_vault;
pub mod bootstrap;
pub mod cache_home;
pub mod checks;
pub mod companion_env;
pub mod disk;
pub mod embeddings;
pub mod env;
pub mod explain;
pub mod flags;
pub mod inference;
pub mod load;
pub mod model;
pub mod observability;
pub mod problem;
pub mod provenance;
pub mod reload;
pub mod retrieval_log;
pub mod schema;
pub mod sections;
pub mod traces;
pub mod wiki;
pub mod work;

pub use bootstrap::{BootstrapConfig, BootstrapDomain};
pub use cache_home::{CACHE_HOME_VARS, CacheHome, Platform};
pub use disk::load_for_command_line;
pub use env::{CONFIG_FILE_VAR, ENV_VARS, EnvKind, EnvVar};
pub use explain::ExplainedValue;
pub use flags::{ConfigFlags, FlagOverride};
pub use inference::{InferenceConfig, InferencePreference, KnowledgeConfig};
pub use load::{CACHE_DIR_NAME, ConfigOrigin, LoadInput, LoadedConfig, ZERO_CONFIG_VAULT_ID, load};
pub use model::{ServerConfig, VaultConfig};
pub use observability::{MetricsConfig, ObservabilityConfig, OtlpConfig};
pub use problem::{ConfigErrors, ConfigProblem};
pub use provenance::{Provenance, Source};
pub use retrieval_log::RetrievalLogConfig;
pub use schema::{SCHEMA_FILE, config_schema, config_schema_text};
pub use sections::{
    AuthConfig, AuthMode, EmbeddingProvider, EmbeddingsConfig, FacadeMode, GRAPH_BOOST,
    GovernorConfig, HttpConfig, IndexConfig, JwtAlgorithm, LEXICAL_WEIGHT, MaintenanceConfig,
    RERANK_DEPTH, RerankConfig, ResourceMetadataConfig, SearchConfig, StdioConfig, ThrottleConfig,
    ThrottleTier, ThrottleTiers, ToolFacadeConfig, ToolVisibilityConfig, TransportsConfig,
    VisibilityProfile,
};
pub use traces::TracesConfig;
pub use wiki::WikiConfig;
pub use work::WorkConfig;
