//! Exports for engine_core::markdown (being written).
