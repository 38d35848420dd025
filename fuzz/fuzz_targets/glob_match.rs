//! Fuzzes the glob matcher and path validation on arbitrary input.
//!
//! Input layout: the first byte picks the case mode (odd: case-insensitive); the rest, read as
//! UTF-8, is split at its first `\n` into a pattern and a path. Compiling, matching, validating
//! and the hard-deny check must never panic, validation must be idempotent, and matching must
//! stay fast on any pattern (libFuzzer's `-timeout` catches a hang).
#![no_main]

use engine_core::acl::{CaseMode, Glob, is_hard_denied, validate_path};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = core::str::from_utf8(rest) else {
        return;
    };
    let (pattern, path) = text.split_once('\n').unwrap_or((text, ""));
    let case = if mode & 1 == 1 {
        CaseMode::Insensitive
    } else {
        CaseMode::Sensitive
    };
    if let Ok(glob) = Glob::compile(pattern, case) {
        core::hint::black_box(glob.matches(path));
    }
    if let Ok(valid) = validate_path(path) {
        assert_eq!(validate_path(&valid).as_deref(), Ok(valid.as_str()));
        core::hint::black_box(is_hard_denied(&valid));
    }
});
