//! Hashes that must agree byte for byte across the server, the plugin and the bridge:
//!
//! - [`canonical_json`]: RFC 8785 (JCS) canonical JSON text of a `serde_json::Value`;
//! - [`args_hash`]: 32 hex characters of SHA-256 over the canonical `[tool_name, args]`;
//! - [`tool_list_hash`]: Bridge Protocol v1's SHA-256 of the deep-key-sorted tool list,
//!   identical to its JavaScript reference ([`compare_tool_names`] is its `localeCompare`);
//! - [`sha256_hex`]: plain SHA-256 as lowercase hex ([`to_hex`]: any bytes as lowercase hex).
//!
//! Object members are always sorted explicitly, never taken in `serde_json::Map` order (which
//! turns into insertion order if any crate enables `serde_json/preserve_order`). Numbers are
//! formatted by an exact shortest-digits algorithm of this module, in integer arithmetic, so
//! native and WASM builds print the same text.

mod bignum;
mod canonical;
mod collation;
mod json_text;
mod key_order;
mod number;
mod sha256;
mod shortest;
mod tool_list;

pub use canonical::{args_hash, canonical_json};
pub use collation::compare_tool_names;
/// ECMAScript `Number::toString` of a finite double (also used by `jsonlogic`'s `ToString`).
pub(crate) use number::write_double;
pub use sha256::{sha256_hex, to_hex};
pub use tool_list::{BridgeTool, bridge_tool_list_json, tool_list_hash};

use core::fmt;

/// Why a value has no canonical text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum HashError {
    /// A number is not a finite double (NaN and ±Infinity have no JSON form). The default
    /// `serde_json` build cannot hold one; with `serde_json/arbitrary_precision` a literal
    /// such as `1e400` can.
    NonFiniteNumber,
}

impl fmt::Display for HashError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NonFiniteNumber => {
                f.write_str("a number is not a finite double (NaN or Infinity)")
            }
        }
    }
}
