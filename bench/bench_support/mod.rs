//! What the benchmarks that drive the product binary share (`bench_server`,
//! `bench_companion`, `bench_load`): MCP clients over stdio and HTTP, the programs they
//! start, the load test's agents, the measurements, statistics, and the Python reference
//! scripts the embedding benches run.

pub mod http_client;
pub mod load_agent;
pub mod process_stats;
pub mod programs;
pub mod python_job;
pub mod roundtrip;
pub mod rpc;
pub mod server;
pub mod startup;
pub mod stats;
pub mod stdio_client;
