//! The export table: each entry becomes a `#[wasm_bindgen]` function and a row of
//! [`call_json`], so the WASM surface and the native vector runner cannot drift apart.

use serde::{Serialize, de::DeserializeOwned};
use wasm_bindgen::prelude::*;

use crate::api::{self, ApiError};
use crate::js;

/// Runs `f` on a JS value, converting both ways with [`crate::js`].
fn js_call<I, O>(f: fn(I) -> Result<O, ApiError>, input: JsValue) -> Result<JsValue, JsError>
where
    I: DeserializeOwned,
    O: Serialize,
{
    let out = f(js::from_js(input)?).map_err(js::error)?;
    js::to_js(&out)
}

/// Runs `f` on a `serde_json::Value`: the native twin of [`js_call`].
fn json_call<I, O>(
    f: fn(I) -> Result<O, ApiError>,
    input: serde_json::Value,
) -> Result<serde_json::Value, ApiError>
where
    I: DeserializeOwned,
    O: Serialize,
{
    let input: I =
        serde_json::from_value(input).map_err(|e| ApiError::invalid_input(e.to_string()))?;
    let out = f(input)?;
    serde_json::to_value(out).map_err(|e| ApiError::new("internal", e.to_string()))
}

macro_rules! exports {
    ($($name:ident => $path:path),* $(,)?) => {
        $(
            #[doc = concat!("WASM export of `", stringify!($path), "`.")]
            #[wasm_bindgen]
            pub fn $name(input: JsValue) -> Result<JsValue, JsError> {
                js_call($path, input)
            }
        )*

        /// Calls the export named `name` with a JSON input, exactly as the WASM export would.
        pub fn call_json(name: &str, input: serde_json::Value) -> Result<serde_json::Value, ApiError> {
            match name {
                $( stringify!($name) => json_call($path, input), )*
                _ => Err(ApiError::new("unknown_function", name.to_string())),
            }
        }
    };
}

exports! {
    // -- text --
    analyze => api::text::analyze,
    analyzer_fingerprint => api::text::analyzer_fingerprint,
    stem => api::text::stem,

    // -- rank --
    bm25_search => api::rank::bm25_search,
    bm25_roundtrip => api::rank::bm25_roundtrip,
    bm25_decode => api::rank::bm25_decode,
    cosine => api::rank::cosine,
    dot => api::rank::dot,
    rrf => api::rank::rrf,
    fuse_scores => api::rank::fuse_scores,
    lexical_search => api::rank::lexical_search,
    lexical_roundtrip => api::rank::lexical_roundtrip,
    lexical_decode => api::rank::lexical_decode,
    note_snapshot_roundtrip => api::snapshot::note_snapshot_roundtrip,
    note_snapshot_decode => api::snapshot::note_snapshot_decode,

    // -- markdown --
    extract_markdown => api::markdown::extract_markdown,
    chunk_markdown => api::markdown::chunk_markdown,

    // -- links --
    resolve_link => api::links::resolve_link,
    resolve_links => api::links::resolve_links,
    link_text_after_move => api::links::link_text_after_move,
    rewrite_note_links => api::links::rewrite_note_links,

    // -- acl --
    parse_scope => api::acl::parse_scope,
    scopes_satisfy => api::acl::scopes_satisfy,
    scope_class => api::acl::scope_class,
    glob_match => api::acl::glob_match,
    validate_path => api::acl::validate_path,
    acl_evaluate => api::acl::acl_evaluate,
    acl_from_presets => api::acl::acl_from_presets,

    // -- hash --
    canonical_json => api::hash::canonical_json,
    args_hash => api::hash::args_hash,
    tool_list_hash => api::hash::tool_list_hash,
    sha256_hex => api::hash::sha256_hex,

    // -- jsonlogic --
    jsonlogic_evaluate => api::jsonlogic::jsonlogic_evaluate,

}
