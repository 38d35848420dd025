//! What a running process holds and does, read from `/proc/<pid>`: resident memory, open file
//! descriptors, whether its threads are stopped (Linux only).

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

/// Whether every thread of process `pid` is stopped (state `T`, or `t` under a tracer, in
/// `/proc/<pid>/task/<tid>/stat`). `kill -STOP` returns once the signal is sent: a thread that
/// is running, waiting for a CPU or inside a system call goes on until it takes the signal.
/// A thread that ends while it is read is not counted.
pub fn all_threads_stopped(pid: u32) -> Result<bool, String> {
    let tasks = fs::read_dir(format!("/proc/{pid}/task"))
        .map_err(|e| format!("cannot list /proc/{pid}/task: {e}"))?;
    for task in tasks.flatten() {
        let Ok(stat) = fs::read_to_string(task.path().join("stat")) else {
            continue;
        };
        // `tid (comm) S …`: the command name may hold spaces and parentheses, the state
        // follows its last `)`.
        let state = stat
            .rfind(')')
            .and_then(|end| stat[end + 1..].split_whitespace().next());
        if !matches!(state, Some("T" | "t")) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// How much `end` grew over `start`, in percent (negative when it shrank).
pub fn growth_percent(start: u64, end: u64) -> f64 {
    if start == 0 {
        return 0.0;
    }
    (end as f64 - start as f64) * 100.0 / start as f64
}
