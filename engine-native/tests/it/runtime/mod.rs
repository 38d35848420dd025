//! The runtime the tools run in.

mod core_tools;
