//! Fuzzes the config file loader (`config::load`, pure: no file system, no environment) with
//! arbitrary file text.
//!
//! Nothing may panic; a refused file reports at least one problem, each naming where; a
//! file that loads describes a configuration that loads again, unchanged, from its own JSON.
#![no_main]

use std::collections::BTreeMap;
use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let input = |text: String| LoadInput {
        origin: ConfigOrigin::File {
            path: PathBuf::from("/fuzz/obsidian-tc.json"),
            text,
        },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    };
    let loaded = match load(&input(text)) {
        Ok(loaded) => loaded,
        Err(errors) => {
            assert!(!errors.0.is_empty(), "a refused config without a problem");
            return;
        }
    };
    let again_text = serde_json::to_string(&loaded.config).expect("a loaded config serializes");
    let again = load(&input(again_text)).expect("a loaded config loads again from its own JSON");
    assert_eq!(
        again.config, loaded.config,
        "a loaded config changed when loaded again"
    );
});
