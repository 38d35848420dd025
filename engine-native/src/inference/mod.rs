//! The language model the knowledge tools call: two roles (`synthesize`, `judge`), two
//! providers, one way out.
//!
//! - Providers ([`Provider`]): the calling MCP client's own model through
//!   `sampling/createMessage` (a [`Sampler`] the MCP layer passes with the call), and an
//!   OpenAI-compatible chat endpoint from the config (`inference`, [`chat`]). With neither, a
//!   tool answers `available: false` and still returns its evidence ([`Gateway::provider`]).
//! - The egress guard ([`egress::guard`]): every piece of vault text a tool puts in a prompt
//!   passes it first; it drops what the caller may not read, what `inference.excludePaths`
//!   names, and every chunk holding a credential, and counts what it withheld. The gateway
//!   scans the whole prompt for credentials again before it leaves the process.
//! - Bounds ([`bounds`]): a call's time (`timeoutMs`), answer size (`maxTokens`), model calls
//!   per tool call (`maxCallsPerRequest`) and per UTC day (`maxCallsPerDay`, counted from the
//!   audit log, so a restart does not reset it).
//! - Audit: every model call, answered or not, is an `event_log` row of tool
//!   `model.<role>` with the provider, model, tokens and outcome (never the prompt), and a
//!   tracing span `model_call`.
//!
//! The entry point for a tool is [`Gateway`]: build one per tool call with
//! [`Gateway::new`], guard the evidence with [`egress::guard`], then [`Gateway::complete`] a
//! [`ModelRequest`] of the role. [`Gateway::usage`] reports the calls and tokens spent.

pub mod bounds;
pub mod chat;
pub mod egress;
mod error;
mod gateway;
mod request;
mod sampler;

pub use error::InferenceError;
pub use gateway::{Audience, Gateway, Usage};
pub use request::{ChatMessage, ModelAnswer, ModelRequest, Provider, Role, Speaker};
pub use sampler::{Sampled, Sampler};
