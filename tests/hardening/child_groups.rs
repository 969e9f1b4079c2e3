//! Issue 37, item 5: the process groups ramvram starts end with it. `watch -- CMD` and
//! `collect --slurm --run` get SIGTERM while their command's group holds a process that ignores
//! TERM (and, in one case, a leader that ignores it too): ramvram passes the signal on, waits up
//! to 10 s for the whole group, kills what is left, and exits 143 (128 + SIGTERM, as a shell
//! reports it). Before the fix `watch` waited for the leader only (the grandchild kept running
//! under init) and `collect` died at once, its `srun`s still running.

#![cfg(target_os = "linux")]

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The state letter of `pid` from /proc (`None` once it is gone).
fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')?.1.trim_start().chars().next()
}

/// Gone, or a zombie nobody reaped yet: no longer running.
fn ended(pid: u32) -> bool {
    proc_state(pid).is_none_or(|s| s == 'Z' || s == 'X')
}

/// The whole lines of `path` once it has `n` of them (each pid written with its newline).
fn wait_for_lines(path: &Path, n: usize) -> Vec<u32> {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if let Ok(text) = std::fs::read_to_string(path) {
            let pids: Vec<u32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
            if pids.len() >= n && text.ends_with('\n') {
                return pids;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{} never got {n} pids", path.display());
}

/// Sends SIGTERM to `child` (ramvram) and returns its exit code within 20 s; on a timeout
/// kills it and `leftovers` and fails.
fn term_and_wait(child: &mut Child, leftovers: &[u32]) -> Option<i32> {
    // SAFETY: kill has no memory preconditions.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) },
        0
    );
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    for p in leftovers {
        // SAFETY: as above; the test's own processes must not outlive it.
        unsafe { libc::kill(*p as libc::pid_t, libc::SIGKILL) };
    }
    panic!("ramvram still runs 20 s after SIGTERM");
}

/// Asserts every pid ended (allowing a moment for a SIGKILL to land), killing survivors so
/// that a failing run leaves nothing behind.
fn assert_all_ended(pids: &[u32], what: &str) {
    let survivors: Vec<u32> = pids.iter().copied().filter(|p| !ended(*p)).collect();
    for p in &survivors {
        // SAFETY: as above.
        unsafe { libc::kill(*p as libc::pid_t, libc::SIGKILL) };
    }
    assert!(
        survivors.is_empty(),
        "{what}: {survivors:?} still running after ramvram exited"
    );
}

/// `watch -- sh -c SCRIPT`, where SCRIPT writes the pids to watch for into `pids`.
fn watch_case(script_for: impl Fn(&Path) -> String) -> (Option<i32>, Vec<u32>) {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let mut watch = Command::new(env!("CARGO_BIN_EXE_ramvram"))
        .args(["watch", "--interval", "100ms", "--", "sh", "-c"])
        .arg(script_for(&pids))
        .env("LANG", "C.UTF-8")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let members = wait_for_lines(&pids, 2);
    let code = term_and_wait(&mut watch, &members);
    (code, members)
}

#[test]
fn watch_ends_the_whole_group_even_members_that_ignore_term() {
    // Two cases at once (each may take the 10 s grace): a leader that dies on TERM with a
    // grandchild that ignores it, and a leader that ignores TERM with such a grandchild.
    let dies = std::thread::spawn(|| {
        watch_case(|p| {
            format!(
                "echo $$ > {p}; (trap '' TERM; exec sleep 300) & echo $! >> {p}; wait",
                p = p.display()
            )
        })
    });
    let ignores = std::thread::spawn(|| {
        watch_case(|p| {
            format!(
                "trap '' TERM; echo $$ > {p}; (exec sleep 300) & echo $! >> {p}; wait",
                p = p.display()
            )
        })
    });
    for (case, handle) in [("leader dies", dies), ("leader ignores TERM", ignores)] {
        let (code, members) = handle.join().unwrap();
        assert_all_ended(&members, case);
        assert_eq!(code, Some(143), "{case}");
    }
}

#[test]
fn collect_run_ends_its_sruns_and_their_groups() {
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let pids = dir.path().join("pids");
    // A fake srun that ignores TERM and starts a worker (in its group) that ignores it too.
    let srun = bin.join("srun");
    std::fs::write(
        &srun,
        format!(
            "#!/bin/sh\ntrap '' TERM\necho $$ >> {p}\n(exec sleep 300) &\necho $! >> {p}\nwait\n",
            p = pids.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&srun, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin.clone()];
    dirs.extend(std::env::split_paths(&path));
    let mut collect = Command::new(env!("CARGO_BIN_EXE_ramvram"))
        .args([
            "collect",
            "--slurm",
            "--run",
            "--nodes",
            "gpu[01-02]",
            "--out",
        ])
        .arg(dir.path().join("profiles"))
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .env("LANG", "C.UTF-8")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Two nodes at once: two sruns and their two workers.
    let members = wait_for_lines(&pids, 4);
    let code = term_and_wait(&mut collect, &members);
    assert_all_ended(&members, "collect");
    assert_eq!(code, Some(143));
}
