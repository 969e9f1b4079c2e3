//! Issue 37, item 7: numbers past 10^15 in errors are written in scientific notation, and a
//! recording that never started leaves no file.

use std::process::{Command, Stdio};

use crate::common::ramvram;

#[test]
fn a_huge_measured_rate_is_shown_as_1e308_not_309_digits() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/profiles/lab-a6000-nfs-measured.json");
    let mut p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture).unwrap()).unwrap();
    p["measurements"]["memory_bandwidth"]["copy_bytes_per_s"] = serde_json::json!(1e308);
    let file = dir.path().join("p.json");
    std::fs::write(&file, p.to_string()).unwrap();
    let out = ramvram()
        .args(["advise", "--profile"])
        .arg(&file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    // 1e308 as written; the cap, 10^14, below 10^15, as the profile's rule writes it.
    assert!(
        stderr.contains("copy_bytes_per_s: 1e308 must be above 0"),
        "{stderr}"
    );
    // No run of 16 digits anywhere (1e308 in full is 309 of them).
    let longest = stderr
        .split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0);
    assert!(longest < 16, "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_recording_onto_a_full_disk_leaves_no_file() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("run.jsonl");
    // Files this process writes may hold 0 bytes (RLIMIT_FSIZE 0, setrlimit(2)): the first
    // write fails with EFBIG, as a full disk's fails with ENOSPC. SIGXFSZ, which the limit
    // raises, is ignored so that the write returns the error (the disposition survives exec).
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ramvram"));
    cmd.args(["watch", "--interval", "100ms", "--duration", "300ms"])
        .args(["--fake-gpu-series", "50", "--record"])
        .arg(&record)
        .env("LANG", "C.UTF-8")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit and signal are async-signal-safe (POSIX.1-2017 2.4.3), no allocation.
    unsafe {
        cmd.pre_exec(|| {
            let zero = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &zero);
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("run.jsonl"), "{stderr}");
    assert!(!record.exists(), "a 0-byte trace was left behind");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
