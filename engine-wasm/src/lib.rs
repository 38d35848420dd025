//! engine-wasm: one WebAssembly export per engine-core capability.
//!
//! Every export takes one plain JS object and returns one plain JS value. The conversion
//! goes through the serde types of [`api`], which are also what the native golden-vector
//! tests call through [`call_json`]: native and WASM run the very same code on the same input.
#![warn(missing_docs)]

pub mod api;
mod exports;
mod js;

pub use exports::call_json;
