//! Where every outgoing HTTP client of the server starts: reqwest's builders over rustls with
//! the `ring` crypto provider, installed for the process before the first client is built.
//!
//! reqwest's `rustls` feature brings aws-lc-rs as the provider, whose C library took 141 s to
//! build on this 2-core machine against 28 s for ring (each alone, same load), once per
//! profile and target: the tests, the release build, the fuzz build and every cross build of
//! the release pay it. ring offers the same TLS 1.2 and 1.3 suites for the few connections the
//! server makes (the Hugging Face hub, embedding endpoints, OTLP collectors, TC Bridge).

use std::sync::Once;

/// Installs ring as the process's TLS crypto provider; later calls do nothing (nor does a
/// call after the embedding program installed a provider of its own).
pub fn install_tls_provider() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // Err only when a provider is already installed, which then serves.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// A builder of an async client (the TLS provider installed first).
pub fn builder() -> reqwest::ClientBuilder {
    install_tls_provider();
    reqwest::Client::builder()
}

/// A builder of a blocking client (the TLS provider installed first).
pub fn blocking_builder() -> reqwest::blocking::ClientBuilder {
    install_tls_provider();
    reqwest::blocking::Client::builder()
}
