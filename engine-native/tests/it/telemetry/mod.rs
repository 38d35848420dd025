//! `obsidian_tc::telemetry`: tool-call spans exported over OTLP/HTTP to a receiver the test
//! starts, whether export is on, and the log formats.

mod logs;
mod otlp;
mod receiver;
mod spans;
