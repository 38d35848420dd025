mod config;
mod local;
mod remote;
