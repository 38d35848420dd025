//! The one way values cross the JS boundary, for the export table and the classes alike.
//!
//! Inputs go through `serde_json::Value`, so they parse exactly as the native vector runner
//! parses them (serde-wasm-bindgen alone ignores `deny_unknown_fields`). Outputs leave as one
//! JSON string that V8's `JSON.parse` turns into plain objects: far cheaper than building
//! them field by field across the boundary, and exact for every `f64` (serde_json writes the
//! shortest text that reads back to the same double).

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use crate::api::ApiError;

/// A JS `Error` whose message is `code: message`.
pub(crate) fn error(e: ApiError) -> JsError {
    JsError::new(&e.to_string())
}

/// Reads a JS value into `T`, refusing unknown fields.
pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    let json: serde_json::Value = serde_wasm_bindgen::from_value(value)
        .map_err(|e| error(ApiError::invalid_input(e.to_string())))?;
    serde_json::from_value(json).map_err(|e| error(ApiError::invalid_input(e.to_string())))
}

/// Like [`from_js`], with `undefined` and `null` meaning `T::default()`.
pub(crate) fn from_js_or_default<T: DeserializeOwned + Default>(
    value: JsValue,
) -> Result<T, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    from_js(value)
}

/// Turns `value` into plain JS data (objects, arrays, strings, numbers, booleans, null).
pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    let text = serde_json::to_string(value)
        .map_err(|e| error(ApiError::new("internal", e.to_string())))?;
    js_sys::JSON::parse(&text)
        .map_err(|_| error(ApiError::new("internal", "JSON.parse refused the output")))
}
