//! The parts of `bench_server`: clients, the baseline server, the measurements, statistics.

pub mod host;
pub mod http_client;
pub mod roundtrip;
pub mod rpc;
pub mod startup;
pub mod stats;
pub mod stdio_client;
