//! Exports for engine_core::acl (being written).
