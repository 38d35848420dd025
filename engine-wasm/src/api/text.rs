//! Exports for engine_core::text (being written).
