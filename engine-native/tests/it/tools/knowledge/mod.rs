//! The knowledge tools through the dispatcher.

mod diagnose;
mod explain;
mod gap_pass;
mod gap_report;
