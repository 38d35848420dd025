//! Exports for engine_core::rank (being written).
