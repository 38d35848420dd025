mod auto;
mod config;
#[cfg(feature = "onnx-runtime")]
mod cross_encoder;
mod hub;
mod local;
#[cfg(feature = "onnx-runtime")]
mod onnx;
mod remote;
mod tiny_models;
mod tokenizer;
