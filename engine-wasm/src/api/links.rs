//! Exports for engine_core::links (being written).
