mod config;
mod http;
mod static_token;
mod verify;
