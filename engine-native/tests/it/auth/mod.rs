mod config;
mod http;
mod verify;
