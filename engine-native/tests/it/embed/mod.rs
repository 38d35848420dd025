mod auto;
mod config;
mod hub;
mod local;
#[cfg(feature = "onnx-runtime")]
mod onnx;
mod remote;
mod tiny_models;
