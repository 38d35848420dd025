//! The knowledge tools through the dispatcher.

mod diagnose;
mod explain;
