//! Exports for engine_core::hash (being written).
