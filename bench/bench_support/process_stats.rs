//! What a running process holds, read from `/proc/<pid>`: resident memory and open file
//! descriptors (Linux only).

use std::fs;

/// One sample of a process.
#[derive(Debug, Clone, Copy)]
pub struct ProcessSample {
    /// Resident set size, KiB (`VmRSS` of `/proc/<pid>/status`).
    pub rss_kib: u64,
    /// Open file descriptors (entries of `/proc/<pid>/fd`).
    pub fds: u64,
}

/// Samples process `pid`.
pub fn sample(pid: u32) -> Result<ProcessSample, String> {
    let status = fs::read_to_string(format!("/proc/{pid}/status"))
        .map_err(|e| format!("cannot read /proc/{pid}/status: {e}"))?;
    let rss_kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .ok_or_else(|| format!("no VmRSS in /proc/{pid}/status"))?;
    let fds = fs::read_dir(format!("/proc/{pid}/fd"))
        .map_err(|e| format!("cannot list /proc/{pid}/fd: {e}"))?
        .count() as u64;
    Ok(ProcessSample { rss_kib, fds })
}

/// How much `end` grew over `start`, in percent (negative when it shrank).
pub fn growth_percent(start: u64, end: u64) -> f64 {
    if start == 0 {
        return 0.0;
    }
    (end as f64 - start as f64) * 100.0 / start as f64
}
