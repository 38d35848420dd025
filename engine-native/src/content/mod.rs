//! What a note's text may carry that needs care before it leaves the server or reaches an
//! agent (the original's "Content" security suites, `secrets` and `poison`):
//!
//! - [`secrets`]: credential-shaped text (API keys, private keys, tokens, passwords) found
//!   before chunks go to a remote embedding provider, reported by class name only.
//! - [`injection`]: text shaped like prompt injection (instruction override, exfiltration
//!   links, hidden text, persistence and delayed triggers), flagged and never altered.
//!
//! - [`findings`]: both scans over a text an agent writes (capture and memory tools), for
//!   the tool's answer.
//!
//! All are pure functions of the text they are given.

pub mod findings;
pub mod injection;
pub mod secrets;
