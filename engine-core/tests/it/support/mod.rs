//! Helpers shared by several test modules.

pub mod markdown;
