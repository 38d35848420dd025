//! The parts of `eval_search`: the product under test, the data sets, the metrics, the FTS5
//! baseline, the suites and the report.

pub mod datasets;
pub mod fts5;
pub mod fusion;
pub mod golden;
pub mod latency;
pub mod latency_embedded;
pub mod metrics;
pub mod product;
pub mod report;
pub mod scifact;
pub mod tuning;
