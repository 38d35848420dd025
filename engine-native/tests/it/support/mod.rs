//! Helpers shared by the test modules, compiled once per test binary (`it`, and `faults`,
//! which includes this folder with `#[path]`): one module per family of tests.

pub mod attachments;
pub mod auth;
pub mod cache_home;
pub mod chat;
pub mod companion;
pub mod dispatch;
pub mod embed;
pub mod gates;
pub mod git;
pub mod hub_mirror;
pub mod links;
pub mod logs;
pub mod mcp;
pub mod store;
pub mod vectors;

/// The name the test harness knows the test function `function` of module `module_path` by
/// (pass `module_path!()`): the module path without the crate, then the function, as
/// `--exact` wants it. For tests that re-run themselves in a child process of this binary.
pub fn test_name(module_path: &str, function: &str) -> String {
    match module_path.split_once("::") {
        Some((_crate, module)) => format!("{module}::{function}"),
        None => function.to_owned(),
    }
}

/// The names of the entries of `folder`, sorted.
pub fn file_names(folder: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .expect("read the folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// Serves `app` on a free loopback port from a thread with a runtime of its own (for the fake
/// servers of the tests); the address it listens on.
pub fn serve_on_loopback(app: axum::Router) -> std::net::SocketAddr {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind");
            tx.send(listener.local_addr().expect("addr")).expect("send");
            axum::serve(listener, app).await.expect("serve");
        });
    });
    rx.recv().expect("address")
}
