//! engine-core: the pure algorithms of obsidian-tc.
//!
//! Everything here is deterministic and free of I/O, clocks and randomness, so the native
//! server and the WebAssembly build inside the Obsidian plugin compute bit-identical results.
//! The crate is `no_std` + `alloc`; it knows nothing of files, SQLite, HTTP or MCP.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

pub mod acl;
pub mod hash;
pub mod jsonlogic;
pub mod links;
pub mod markdown;
pub mod rank;
pub mod text;
