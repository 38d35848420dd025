//! Runs every golden vector in `tests/vectors/*.json` natively, through the same
//! [`engine_wasm::call_json`] table that backs the WASM exports. The Node runner
//! (`tests/wasm/vectors.test.mjs`) runs the same files against the WASM build.

use std::path::{Path, PathBuf};

use serde_json::Value;

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

/// Structural equality where numbers compare by exact `f64` value (1 == 1.0) and
/// everything else must match exactly.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
                (Some(p), Some(q), _, _) => p == q,
                (_, _, Some(p), Some(q)) => p == q,
                _ => x.as_f64().map(f64::to_bits) == y.as_f64().map(f64::to_bits),
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// Like [`same`], but numbers only need to be within `tol` (relative, at least absolute `tol`).
fn close(a: &Value, b: &Value, tol: f64) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= tol * y.abs().max(1.0)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| close(p, q, tol))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| close(v, w, tol)))
        }
        _ => a == b,
    }
}

/// Checks one case; with `bless`, fills in a missing `expected` from the output once the
/// case's independent `reference` (required for blessing) agrees with it.
fn check(function: &str, case: &mut Value, bless: bool) -> Result<(), String> {
    let got = engine_wasm::call_json(function, case["input"].clone());
    if let (Ok(v), Some(reference)) = (&got, case.get("reference")) {
        let tol = case
            .get("tolerance")
            .and_then(Value::as_f64)
            .unwrap_or(1e-6);
        if !close(v, reference, tol) {
            return Err(format!(
                "differs from reference {reference} beyond {tol}: got {v}"
            ));
        }
    }
    match (&got, case.get("expected"), case.get("error")) {
        (Ok(v), Some(want), None) if same(v, want) => Ok(()),
        (Err(e), None, Some(Value::String(code))) if &e.code == code => Ok(()),
        (Ok(v), None, None) if bless && case.get("reference").is_some() => {
            case["expected"] = v.clone();
            Ok(())
        }
        _ => Err(format!(
            "expected {}\n  got      {:?}",
            case.get("expected")
                .or(case.get("error"))
                .unwrap_or(&Value::Null),
            got.map(|v| v.to_string()).map_err(|e| e.to_string())
        )),
    }
}

#[test]
fn golden_vectors_pass_natively() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("tests/vectors exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut passed, mut failures) = (0usize, Vec::new());
    for file in &files {
        let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let original = doc.clone();
        let function = doc["function"]
            .as_str()
            .expect("vector file names its function")
            .to_string();
        let cases = doc["cases"].as_array_mut().expect("vector file has cases");
        assert!(!cases.is_empty(), "{}: no cases", file.display());
        for case in cases.iter_mut() {
            match check(&function, case, bless) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!(
                    "{} :: {function} :: {}\n  {why}",
                    file.file_name().unwrap().to_string_lossy(),
                    case["name"].as_str().unwrap_or("?"),
                )),
            }
        }
        if bless && doc != original {
            std::fs::write(file, serde_json::to_string_pretty(&doc).unwrap() + "\n").unwrap();
        }
    }
    println!(
        "{passed} golden vectors passed natively across {} files",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} vector(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
