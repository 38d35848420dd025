//! What the benchmarks that drive the product binary share (`bench_server`,
//! `bench_companion`): MCP clients over stdio and HTTP, the programs they start, the
//! measurements, statistics.

pub mod http_client;
pub mod programs;
pub mod roundtrip;
pub mod rpc;
pub mod startup;
pub mod stats;
pub mod stdio_client;
