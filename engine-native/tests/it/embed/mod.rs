mod auto;
mod config;
mod hub;
mod local;
mod remote;
mod tiny_models;
