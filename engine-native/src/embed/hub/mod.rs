//! Models from the Hugging Face hub, fetched the way `huggingface_hub` fetches them so that
//! the cache is shared with other tools: `HF_ENDPOINT` (default `https://huggingface.co`),
//! the URL layout `{endpoint}/{repo}/resolve/{revision}/{path}`, the cache layout of
//! [`cache`] under `HF_HUB_CACHE` / `HF_HOME`, and `HF_HUB_OFFLINE`.
//!
//! - [`spec`]: which files of which commit make a model, each pinned by its SHA-256; the
//!   pins of the models obsidian-tc knows, per engine.
//! - [`cache`]: the cache folders, finding a snapshot whose files match their pins.
//! - [`fetch`]: the download: resumable, checked, atomic, a blob in the cache reused.
//! - [`hops`]: one GET through the hub's redirects, the token to the hub only.
//! - [`access`]: the token (`HF_TOKEN` or the login file) and how long failures are
//!   waited out.
//! - [`wait`]: waiting out outages and rate limits within that budget.
//! - [`error`]: what went wrong and what to do.
//!
//! Written here rather than with the `hf-hub` crate: hf-hub 0.4 brings reqwest 0.12 (a second
//! HTTP and TLS stack beside our reqwest 0.13) and ureq, hf-hub 1.0 brings the Xet storage
//! client (`hf-xet` and its xet-* crates); neither checks a caller's pinned SHA-256 before a
//! file enters the cache. What is needed here is a GET with `Range` over our reqwest, a
//! SHA-256 (`sha2`), a rename and a symlink.

pub mod access;
pub mod cache;
pub mod error;
pub mod fetch;
pub mod hops;
pub mod spec;
pub mod wait;

pub use access::{DEFAULT_WAIT, HubAccess, WAIT_VAR};
pub use cache::{Check, hub_roots, verified_snapshot};
pub use error::HubError;
pub use fetch::{DEFAULT_ENDPOINT, HubSettings, Transfer, fetch_model, fetch_model_as, probe};
pub use spec::{
    DEFAULT_MODEL, DEFAULT_REVISION, HubFile, MINILM_MODEL, ModelSpec, WeightsFormat, default_spec,
    pinned_spec,
};
